import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "../platform/env";

/**
 * Secrets an administrator enters for a provider, sealed with a key derived
 * from the server's secret (AES-256-GCM). The provider's id is bound in as
 * associated data, so a sealed value copied onto another provider's row does
 * not open. A database dump or a backup archive holds only the sealed form.
 */
const VERSION = "v1";

function key(): Buffer {
  return Buffer.from(hkdfSync("sha256", env.AUTH_SECRET, "namecard", "identity provider secrets", 32));
}

export function sealSecret(plain: string, providerId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(Buffer.from(providerId));
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${iv.toString("base64url")}.${sealed.toString("base64url")}`;
}

/**
 * The secret, or null when it cannot be opened: sealed under another server's
 * secret (a backup restored elsewhere) or altered. The administrator then
 * enters it again.
 */
export function openSecret(value: string, providerId: string): string | null {
  const [version, iv, sealed] = value.split(".");
  if (version !== VERSION || !iv || !sealed) return null;
  try {
    const bytes = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(providerId));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
