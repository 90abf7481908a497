import { env } from "./env";

/**
 * The policy of every page: scripts only from this site and only those inline
 * scripts that carry the response's nonce; no plugins, no framing by other
 * sites, forms and links to this site. Styles allow inline `style`
 * attributes, which carry the brand colours the administrators choose; they
 * cannot run code. Images: this site, and `data:`/`blob:` for previews.
 * Development adds what Vite's hot reload needs.
 */
export function contentSecurityPolicy(nonce: string): string {
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
    "form-action 'self'",
    "frame-ancestors 'self'",
  ];
  return directives.join("; ");
}
