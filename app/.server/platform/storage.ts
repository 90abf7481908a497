import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { AwsClient } from "aws4fetch";
import { env } from "./env";

/**
 * Where uploaded bytes live: local disk under
 * DATA_DIR/uploads by default, any S3-compatible bucket when S3_* is set.
 * Keys are content-addressed, so an object never changes once written.
 */
type StoredObject = { body: Uint8Array; contentType: string };

export interface Storage {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  ".webp": "image/webp",
  ".jpg": "image/jpeg",
  ".png": "image/png",
};

/** Keys are ours (hex digests and fixed folders); anything else is refused. */
function isValidKey(key: string): boolean {
  return /^[a-z]+\/[a-f0-9]{16,64}(-[a-z0-9]+)?\.(webp|jpg|png)$/.test(key);
}

export function createDiskStorage(root: string): Storage {
  const fileOf = (key: string) => {
    if (!isValidKey(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, body) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file. The temporary
      // name is unique per write: two requests storing the same image at once
      // (same content, same key) must not share one. A failed write removes it.
      const temporary = `${file}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
      try {
        await fs.writeFile(temporary, body, { flag: "wx" });
        await fs.rename(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true }).catch(() => {});
        throw error;
      }
    },
    async get(key) {
      if (!isValidKey(key)) return null;
      try {
        const body = await fs.readFile(fileOf(key));
        return { body, contentType: CONTENT_TYPES[path.extname(key)] ?? "application/octet-stream" };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      if (!isValidKey(key)) return;
      await fs.rm(fileOf(key), { force: true });
    },
  };
}

export function createS3Storage(options: {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}): Storage {
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    region: options.region,
    service: "s3",
  });
  // Path-style addressing works with every S3-compatible server.
  const urlOf = (key: string) => `${options.endpoint.replace(/\/+$/, "")}/${options.bucket}/${key}`;
  return {
    async put(key, body, contentType) {
      if (!isValidKey(key)) throw new Error(`Invalid storage key: ${key}`);
      const response = await client.fetch(urlOf(key), {
        method: "PUT",
        body: new Uint8Array(body),
        headers: { "content-type": contentType, "cache-control": "public, max-age=31536000, immutable" },
      });
      if (!response.ok) throw new Error(`S3 put ${key} failed: ${response.status} ${await response.text()}`);
    },
    async get(key) {
      if (!isValidKey(key)) return null;
      const response = await client.fetch(urlOf(key));
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`S3 get ${key} failed: ${response.status}`);
      return {
        body: new Uint8Array(await response.arrayBuffer()),
        contentType:
          response.headers.get("content-type") ?? CONTENT_TYPES[path.extname(key)] ?? "application/octet-stream",
      };
    },
    async delete(key) {
      if (!isValidKey(key)) return;
      const response = await client.fetch(urlOf(key), { method: "DELETE" });
      if (!response.ok && response.status !== 404) throw new Error(`S3 delete ${key} failed: ${response.status}`);
    },
  };
}

let storage: Storage | undefined;

/** Uses another store from now on (tests point it at one that is down). */
export function setStorage(next: Storage | undefined) {
  storage = next;
}

export function getStorage(): Storage {
  storage ??=
    env.S3_ENDPOINT && env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? createS3Storage({
          endpoint: env.S3_ENDPOINT,
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        })
      : createDiskStorage(path.join(env.DATA_DIR, "uploads"));
  return storage;
}
