import { describe, expect, it } from "vitest";
import { cachedForMs } from "./oidc";

describe("a provider's discovered settings", () => {
  it("are kept as long as its Cache-Control says, never past ten minutes, and read again each time when it says no-store", () => {
    expect(cachedForMs(null)).toBe(600_000);
    expect(cachedForMs("public, max-age=60")).toBe(60_000);
    expect(cachedForMs('max-age="30", must-revalidate')).toBe(30_000);
    expect(cachedForMs("max-age=86400")).toBe(600_000);
    expect(cachedForMs("no-store")).toBe(0);
    expect(cachedForMs("private, no-cache")).toBe(0);
    expect(cachedForMs("max-age=0")).toBe(0);
  });
});
