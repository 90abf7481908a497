import { createHmac } from "node:crypto";

/**
 * An authenticator app, as RFC 6238 describes one: the key from an otpauth://
 * address (base32), and the 6-digit code of a 30-second step. Written from the
 * RFC rather than taken from the library the server uses, so that a code the
 * server accepts is one a phone's app would show.
 */
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Bytes(text: string): Buffer {
  let bits = "";
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes: number[] = [];
  for (let at = 0; at + 8 <= bits.length; at += 8) bytes.push(Number.parseInt(bits.slice(at, at + 8), 2));
  return Buffer.from(bytes);
}

/** The code an app shows for this otpauth:// address at `at` (now by default), `steps` periods away. */
export function totpCode(uri: string, { at = Date.now(), steps = 0 } = {}): string {
  const url = new URL(uri);
  const key = base32Bytes(url.searchParams.get("secret") ?? "");
  const period = Number(url.searchParams.get("period") ?? 30);
  const digits = Number(url.searchParams.get("digits") ?? 6);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / period) + steps));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = (mac.at(-1) ?? 0) & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(value).padStart(digits, "0");
}
