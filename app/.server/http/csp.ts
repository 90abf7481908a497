import { randomFillSync } from "node:crypto";
import { createContext } from "react-router";
import { env } from "../platform/env";

const NONCE_BYTES = 16;
/** Random bytes drawn 256 nonces at a time: one draw per response was a measurable share of a cached card's work (decision 035). */
const nonceBytes = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = nonceBytes.length;

/** A new script nonce: 16 random bytes, base64, never used before (each byte is handed out once). */
export function newNonce(): string {
  if (nonceOffset === nonceBytes.length) {
    randomFillSync(nonceBytes);
    nonceOffset = 0;
  }
  const nonce = nonceBytes.toString("base64", nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

/**
 * Origins a page's forms may lead to besides this site, set by its loader: the
 * sign-in page's forms go on to the identity providers' sign-in pages, and a
 * browser without JavaScript follows that redirect only if the policy allows it.
 */
export const formTargetsContext = createContext<readonly string[]>([]);

/**
 * The policy of every page: scripts only from this site and only those inline
 * scripts that carry the response's nonce; no plugins, no framing by other
 * sites, forms and links to this site. Styles allow inline `style`
 * attributes, which carry the brand colours the administrators choose; they
 * cannot run code. Images: this site, and `data:`/`blob:` for previews.
 * Development adds what Vite's hot reload needs.
 */
export function contentSecurityPolicy(nonce: string, formTargets: readonly string[] = []): string {
  const development = env.NODE_ENV === "development";
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    // The sign-in page's forms may lead on to the company's identity providers (formTargetsContext).
    ["form-action 'self'", ...formTargets].join(" "),
    "frame-ancestors 'self'",
  ];
  return directives.join("; ");
}
