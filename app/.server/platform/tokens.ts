import { createHash, createHmac, randomBytes } from "node:crypto";
import { env } from "./env";

/** A secret for a link or a cookie: 256 random bits, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a token: a reader of the table cannot use it. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A keyed hash naming an address in counters, so the counters store no address. */
export function keyedHash(purpose: string, value: string): string {
  return `${purpose}:${createHmac("sha256", env.AUTH_SECRET).update(`${purpose}:${value.trim().toLowerCase()}`).digest("base64url")}`;
}
