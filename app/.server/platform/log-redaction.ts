/**
 * What a log line may show of an address: the one rule every line that prints
 * a request's address, a link or a path goes through
 * (docs/decisions/039-no-secrets-in-logs.md).
 *
 * - Every value of the query is replaced: tokens, codes, states and keys
 *   travel there, and so do searches and addresses. A parameter's name stays
 *   when it reads like one (short, a letter or `_` first).
 * - Under the auth API, a path segment stays only when it is a word of
 *   better-auth's own endpoint paths (read from its endpoint table): its
 *   `/reset-password/:token` carries the token in the path, and whatever else
 *   is sent there is not ours to print. The path is first resolved as the
 *   router resolves it (`..`, `\`, `%2e`, letter case), so no spelling of the
 *   address gets past.
 * - Other paths are printed as sent: the app's own routes carry no secret in
 *   their paths (usernames, ids and upload keys; tests/process/secrets-in-logs.test.ts
 *   checks the route table).
 * - A fragment is replaced, and so is the user and password of an absolute address.
 */

export const REDACTED = "***";

/** The auth API as the rule reads it: its base path's segments, and the fixed words of its endpoints' paths. */
export type AuthApiPaths = { base: readonly string[]; words: ReadonlySet<string> };

const PARAMETER_NAME = /^[A-Za-z_][\w.-]{0,23}$/;
/** The scheme and authority of an absolute address (`https://user@host:port`). */
const ORIGIN = /^[a-z][a-z\d+.-]*:\/\/[^/?#\\]*/i;
/** A word of free text that is, or holds, an address. */
const ADDRESS_LIKE = /\?|:\/\/|^[/\\]/;

/** An address (a request's target, or an absolute link) as a log line shows it. */
export function loggedUrl(address: string): string {
  return redactUrl(address, authApiPaths());
}

/** A message with every address in it shown as `loggedUrl` shows it (for messages other code wrote). */
export function loggedText(text: string): string {
  return text.replace(/\S+/g, (word) => (ADDRESS_LIKE.test(word) ? loggedUrl(word) : word));
}

/**
 * The rule itself, given the auth API. Without it (better-auth not started:
 * no database yet), every segment of every path is replaced.
 */
export function redactUrl(address: string, authApi: AuthApiPaths | null): string {
  const origin = ORIGIN.exec(address)?.[0] ?? "";
  const rest = address.slice(origin.length);
  const end = rest.search(/[?#]/);
  const path = end < 0 ? rest : rest.slice(0, end);
  const after = end < 0 ? "" : rest.slice(end);
  return `${withoutCredentials(origin)}${redactPath(path, authApi)}${redactAfterPath(after)}`;
}

function withoutCredentials(origin: string): string {
  const at = origin.lastIndexOf("@");
  if (at < 0) return origin;
  return `${origin.slice(0, origin.indexOf("//") + 2)}${REDACTED}${origin.slice(at)}`;
}

function redactAfterPath(after: string): string {
  if (after.startsWith("#")) return after.length > 1 ? `#${REDACTED}` : after;
  if (!after.startsWith("?")) return after;
  const parameters = after
    .slice(1)
    .split("&")
    .map((parameter) => {
      const equals = parameter.indexOf("=");
      const name = equals < 0 ? parameter : parameter.slice(0, equals);
      const shownName = name === "" || PARAMETER_NAME.test(name) ? name : REDACTED;
      if (equals < 0) return shownName;
      return `${shownName}=${equals === parameter.length - 1 ? "" : REDACTED}`;
    });
  return `?${parameters.join("&")}`;
}

function redactPath(path: string, authApi: AuthApiPaths | null): string {
  if (path === "") return path;
  const resolved = resolvedPath(path);
  if (resolved === null) return `/${REDACTED}`;
  const segments = resolved.split("/");
  if (authApi && !isUnder(segments, authApi.base)) return path;
  const shown = (segment: string) => segment === "" || (authApi?.words.has(wordOf(segment) ?? "") ?? false);
  return segments.map((segment) => (shown(segment) ? segment : REDACTED)).join("/");
}

/** The path as the server's router sees it: dot segments resolved and backslashes read as slashes. */
function resolvedPath(path: string): string | null {
  const rooted = path.startsWith("/") || path.startsWith("\\") ? path : `/${path}`;
  try {
    return new URL(`http://log.invalid${rooted}`).pathname;
  } catch {
    return null;
  }
}

/** Whether the path's first segments are the base's, in any letter case and escaping (as React Router matches). */
function isUnder(segments: string[], base: readonly string[]): boolean {
  const named = segments.filter((segment) => segment !== "");
  return base.every((word, index) => named[index] !== undefined && wordOf(named[index]) === word);
}

function wordOf(segment: string): string | null {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return null;
  }
}

let known: AuthApiPaths | null = null;

/**
 * Learns the auth API's paths from better-auth once it runs (app/.server/http/auth.ts
 * tells it): its base path, and the words of every endpoint's path, plugins'
 * too. Until then every path segment is replaced.
 */
export function learnAuthApi(auth: { options: { basePath?: string }; api: Record<string, unknown> }) {
  const base = wordsOf(auth.options.basePath ?? "");
  const words = new Set(base);
  for (const endpoint of Object.values(auth.api)) {
    const path = (endpoint as { path?: unknown }).path;
    if (typeof path === "string") for (const word of wordsOf(path)) words.add(word);
  }
  known = { base, words };
}

function authApiPaths(): AuthApiPaths | null {
  return known;
}

/** The fixed words of an endpoint's path: its parameters (`:token`) and wildcards are not words. */
function wordsOf(path: string): string[] {
  return path
    .split("/")
    .filter((part) => part !== "" && !part.startsWith(":") && !part.includes("*"))
    .map((part) => part.toLowerCase());
}
