import { describe, expect, it } from "vitest";
import { newNonce } from "./csp";

describe("script nonces", () => {
  it("are 16 random bytes each, and never repeat, across many draws of random bytes", () => {
    // 1,000 nonces take four draws of 256.
    const nonces = Array.from({ length: 1_000 }, () => newNonce());
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});
