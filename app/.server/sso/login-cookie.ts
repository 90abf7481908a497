/**
 * The cookie that holds a browser's key to finish the sign-in it started (or,
 * for a SAML provider's unsolicited answer, the one it posted): better-auth
 * names and sets it like its own, in http/sso-plugin.ts and in the SAML assertion
 * consumer service.
 */
export const LOGIN_COOKIE = "sso_login";

/** How long the browser keeps the key that lets it finish a sign-in. */
export const LOGIN_COOKIE_MAX_AGE_S = 10 * 60;

type CookieAttributes = { path?: string; maxAge?: number; secure?: boolean };
type CreateAuthCookie = (
  name: string,
  attributes: { maxAge: number },
) => { name: string; attributes: CookieAttributes };

/** The `Set-Cookie` value for a response made outside better-auth, named and flagged as better-auth would. */
export function loginCookieHeader(createAuthCookie: CreateAuthCookie, browserKey: string): string {
  const { name, attributes } = createAuthCookie(LOGIN_COOKIE, { maxAge: LOGIN_COOKIE_MAX_AGE_S });
  return [
    `${name}=${browserKey}`,
    `Path=${attributes.path ?? "/"}`,
    `Max-Age=${attributes.maxAge ?? LOGIN_COOKIE_MAX_AGE_S}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(attributes.secure ? ["Secure"] : []),
  ].join("; ");
}
