import { createHash, createHmac, type Hash, type Hmac, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * What an archive proves about itself (docs/decisions/012-backups.md): its
 * last line holds the SHA-256 of every line before it, as written, and an
 * HMAC-SHA256 of the same under a key derived from AUTH_SECRET. The checksum
 * says the archive is whole and unchanged; anyone can compute one, so only
 * the HMAC says that an installation holding this AUTH_SECRET made it.
 */
export type Checksum = { sha256: string; hmac: string };

/** A key of its own for archives: the server's secret itself signs sessions and seals provider secrets. */
function archiveKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "namecard", "backup archive", 32));
}

export class ArchiveChecksum {
  private readonly sha256: Hash = createHash("sha256");
  private readonly hmac: Hmac;

  constructor(secret: string) {
    this.hmac = createHmac("sha256", archiveKey(secret));
  }

  /** Adds a line as written: its text and its newline. */
  update(text: string) {
    this.sha256.update(text, "utf8");
    this.hmac.update(text, "utf8");
  }

  digest(): Checksum {
    return { sha256: this.sha256.digest("hex"), hmac: this.hmac.digest("hex") };
  }
}

/** Whether a stored digest (anything read from an archive) is the computed one, compared in constant time. */
export function sameDigest(computed: string, stored: unknown): boolean {
  if (typeof stored !== "string" || !/^[0-9a-f]{64}$/.test(stored)) return false;
  return timingSafeEqual(Buffer.from(computed, "hex"), Buffer.from(stored, "hex"));
}
