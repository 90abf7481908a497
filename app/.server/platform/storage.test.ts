import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// @ts-expect-error s3rver ships no type declarations
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiskStorage, createS3Storage, type Storage } from "./storage";

const KEY = "profiles/0123456789abcdef0123456789abcdef.webp";
const BYTES = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4]);

function behavesLikeStorage(name: string, make: () => Storage) {
  describe(name, () => {
    it("gives back what was put, with its type, and nothing once deleted", async () => {
      const storage = make();
      expect(await storage.get(KEY)).toBeNull();
      await storage.put(KEY, BYTES, "image/webp");
      const stored = await storage.get(KEY);
      expect(Array.from(stored!.body)).toEqual(Array.from(BYTES));
      expect(stored!.contentType).toBe("image/webp");
      await storage.delete(KEY);
      expect(await storage.get(KEY)).toBeNull();
      await storage.delete(KEY); // deleting twice is fine
    });

    it("refuses keys that could escape the store", async () => {
      const storage = make();
      await expect(storage.put("../etc/passwd.png", BYTES, "image/png")).rejects.toThrow(/Invalid storage key/);
      expect(await storage.get("../../secret.webp")).toBeNull();
    });
  });
}

behavesLikeStorage("local disk storage", () =>
  createDiskStorage(fs.mkdtempSync(path.join(os.tmpdir(), "namecard-disk-"))),
);

/** A real S3-compatible server on 127.0.0.1, spoken to with signed requests as in production. */
let server: { close(): Promise<void> };
let endpoint = "";
beforeAll(async () => {
  const instance = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: fs.mkdtempSync(path.join(os.tmpdir(), "namecard-s3-")),
    configureBuckets: [{ name: "cards", configs: [] }],
  });
  const address = (await instance.run()) as { address: string; port: number };
  endpoint = `http://127.0.0.1:${address.port}`;
  server = instance;
});
afterAll(async () => {
  await server?.close();
});

behavesLikeStorage("S3-compatible storage", () =>
  createS3Storage({ endpoint, bucket: "cards", region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER" }),
);

describe("S3-compatible storage with wrong credentials", () => {
  it("fails loudly instead of pretending to store", async () => {
    const storage = createS3Storage({
      endpoint,
      bucket: "cards",
      region: "us-east-1",
      accessKeyId: "UNKNOWN",
      secretAccessKey: "wrong",
    });
    await expect(storage.put(KEY, BYTES, "image/webp")).rejects.toThrow(/S3 put .* failed: 403/);
  });
});
