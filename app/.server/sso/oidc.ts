import { eq, lt, sql } from "drizzle-orm";
import * as client from "openid-client";
import { db } from "../platform/db/client";
import { ssoLogins } from "../platform/db/schema";
import { env } from "../platform/env";
import { randomToken, tokenHash } from "../platform/tokens";
import type { ProviderClaims } from "./claims";
import { isLoopbackIssuer } from "./schemas";

/**
 * OpenID Connect sign-in through openid-client, a certified relying party
 * (docs/decisions/030-single-sign-on.md): the authorization code flow with
 * PKCE (S256), `state` and `nonce`; the ID token's signature (against the
 * provider's published keys), issuer, audience, expiry and nonce are checked
 * by the library before any claim is read here.
 */

/** What a sign-in needs of a provider (sso/providers.ts keeps the rest). */
type OidcProvider = {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  updatedAt: Date;
};

/** How long a provider has to answer one request. */
const REQUEST_TIMEOUT_S = 10;
/** The longest a provider's discovered settings are used before they are read again (less when it says so). */
const CONFIGURATION_TTL_MS = 10 * 60 * 1000;
/** How long a person has to come back from the provider. */
const LOGIN_TTL_MS = 10 * 60 * 1000;
/**
 * The scopes asked for: `email` and `profile` always (OpenID Connect Discovery
 * does not require `scopes_supported` to be complete, and a provider that
 * lists only `openid` still answers them), `phone` when the provider lists it.
 */
const ALWAYS_SCOPES = ["openid", "email", "profile"];
const LISTED_SCOPES = ["phone"];

/**
 * The one address every provider sends people back to, registered at each.
 * Which provider an answer is from is the pending sign-in's (found by its
 * state); the answer's `iss` parameter, when the provider sends one, must be
 * that provider's (RFC 9207, checked by the library).
 */
export function callbackUrl(): string {
  return `${env.PUBLIC_URL}/api/auth/sso/callback`;
}

function extensions(issuer: URL) {
  // Also check the ID token's signature when it comes straight from the token endpoint.
  const chosen = [client.enableNonRepudiationChecks];
  if (isLoopbackIssuer(issuer)) chosen.push(client.allowInsecureRequests);
  return chosen;
}

/** How long a discovery response may be cached, from its Cache-Control: no longer than CONFIGURATION_TTL_MS. */
export function cachedForMs(cacheControl: string | null): number {
  if (!cacheControl) return CONFIGURATION_TTL_MS;
  if (/(?:^|,)\s*(?:no-store|no-cache)\b/i.test(cacheControl)) return 0;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(cacheControl);
  return maxAge ? Math.min(Number(maxAge[1]) * 1000, CONFIGURATION_TTL_MS) : CONFIGURATION_TTL_MS;
}

/** Reads a provider's settings; `cachedFor` hears how long its response may be cached. */
function discover(
  issuer: URL,
  clientId: string,
  secret: string | undefined,
  cachedFor: (ms: number) => void = () => {},
) {
  const fetchNoting: client.CustomFetch = async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    if (new URL(url).pathname.endsWith("/.well-known/openid-configuration")) {
      cachedFor(cachedForMs(response.headers.get("cache-control")));
    }
    return response;
  };
  return client.discovery(
    issuer,
    clientId,
    undefined,
    secret === undefined ? undefined : client.ClientSecretBasic(secret),
    {
      execute: extensions(issuer),
      timeout: REQUEST_TIMEOUT_S,
      [client.customFetch]: fetchNoting,
    },
  );
}

/**
 * Reads a provider's settings as a save checks them: where its sign-in page
 * is, or why they could not be read, as the settings form says it.
 */
export async function checkDiscovery(
  issuer: string,
): Promise<{ ok: true; authorizationOrigin: string } | { ok: false; message: string }> {
  const url = new URL(issuer);
  let metadata: client.ServerMetadata;
  try {
    metadata = (await discover(url, "namecard", undefined)).serverMetadata();
  } catch (error) {
    const where = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
    return { ok: false, message: `Could not read the provider's settings at ${where}: ${reasonOf(error)}` };
  }
  // A shared issuer (Microsoft's /common or /organizations) would accept any tenant's people.
  if (new URL(metadata.issuer).href !== url.href) {
    return {
      ok: false,
      message: `The provider names its issuer ${metadata.issuer.slice(0, 200)}: enter your own tenant's issuer URL, not a shared one`,
    };
  }
  const { authorization_endpoint, token_endpoint, userinfo_endpoint, jwks_uri } = metadata;
  if (!authorization_endpoint || !token_endpoint || !jwks_uri) {
    return {
      ok: false,
      message: "The provider's settings name no authorization or token endpoint or keys: check the issuer URL",
    };
  }
  // Plain http is for a provider on this machine only: every endpoint it names must be too.
  const endpoints = [authorization_endpoint, token_endpoint, jwks_uri, userinfo_endpoint].filter(
    (endpoint): endpoint is string => typeof endpoint === "string",
  );
  if (endpoints.some((endpoint) => !isAllowedEndpoint(endpoint))) {
    return { ok: false, message: "The provider's endpoints must use https (http only on 127.0.0.1 or localhost)" };
  }
  return { ok: true, authorizationOrigin: new URL(authorization_endpoint).origin };
}

function isAllowedEndpoint(endpoint: string): boolean {
  try {
    const url = new URL(endpoint);
    return url.protocol === "https:" || isLoopbackIssuer(url);
  } catch {
    return false;
  }
}

/** A short reason for a failure, without tokens or secrets: the error's own message, then its cause's. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return "unknown error";
  // The provider's own words (RFC 6749 §5.2), which say what it refused.
  const { error: code, error_description: description } = error as { error?: unknown; error_description?: unknown };
  const said =
    typeof code === "string"
      ? `: the provider answered ${code}${typeof description === "string" ? ` (${description})` : ""}`
      : "";
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${said}${cause}`.slice(0, 300);
}

/** Whether the token endpoint refused the client's authentication (RFC 6749 §5.2). */
function isRefusedClient(error: unknown): boolean {
  // RFC 6749 says invalid_client; Glewlwyd answers unauthorized_client for a secret it cannot read.
  const code = (error as { error?: unknown })?.error;
  return code === "invalid_client" || code === "unauthorized_client";
}

type Cached = {
  updatedAt: number;
  until: number;
  config: Promise<client.Configuration>;
  /** Whether the client secret goes in the form body: the provider refused it in the Authorization header. */
  posted: boolean;
};
const configurations = new Map<string, Cached>();

/** Forgets a provider's settings: the next sign-in reads them again (a save, "Check again"). */
export function forgetConfiguration(providerId: string) {
  configurations.delete(providerId);
}

/** The same settings with the client secret sent in the form body (client_secret_post). */
function postingSecret(found: client.Configuration, provider: OidcProvider): client.Configuration {
  const posted = new client.Configuration(
    found.serverMetadata(),
    provider.clientId,
    undefined,
    client.ClientSecretPost(provider.clientSecret),
  );
  for (const extend of extensions(new URL(provider.issuer))) extend(posted);
  posted.timeout = REQUEST_TIMEOUT_S;
  return posted;
}

async function configurationOf(provider: OidcProvider): Promise<client.Configuration> {
  const cached = configurations.get(provider.id);
  if (cached && cached.updatedAt === provider.updatedAt.getTime() && Date.now() < cached.until) {
    return cached.config;
  }
  const posted = cached?.updatedAt === provider.updatedAt.getTime() && cached.posted;
  const entry: Cached = {
    updatedAt: provider.updatedAt.getTime(),
    until: Date.now() + CONFIGURATION_TTL_MS,
    posted,
    config: Promise.resolve(null as never),
  };
  entry.config = discover(new URL(provider.issuer), provider.clientId, provider.clientSecret, (ms) => {
    entry.until = Date.now() + ms;
  }).then((found) => {
    const methods = found.serverMetadata().token_endpoint_auth_methods_supported;
    // client_secret_basic is the default a provider must accept; some list only the form-post method.
    const listsPostOnly = methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post");
    if (listsPostOnly) entry.posted = true;
    return entry.posted ? postingSecret(found, provider) : found;
  });
  configurations.set(provider.id, entry);
  // A failed read is not cached: the next sign-in tries again.
  entry.config.catch(() => {
    if (configurations.get(provider.id) === entry) configurations.delete(provider.id);
  });
  return entry.config;
}

/**
 * Sends the secret in the form body from now on, for this provider: it
 * refused it in the Authorization header, where RFC 6749 has it form-encoded
 * first, which some providers do not decode (a secret with punctuation is then
 * wrong). Returns the settings to try again with, or null when already posting.
 */
async function postSecretFromNowOn(provider: OidcProvider): Promise<client.Configuration | null> {
  const cached = configurations.get(provider.id);
  if (!cached || cached.posted) return null;
  const found = await cached.config;
  cached.posted = true;
  const posted = postingSecret(found, provider);
  cached.config = Promise.resolve(posted);
  return posted;
}

/**
 * Starts a sign-in: stores what the answer is checked against and returns
 * the provider's address to send the browser to, with the key the browser
 * keeps in a cookie so that only it can finish this sign-in.
 */
export async function startOidcSignIn(
  provider: OidcProvider,
  options: { redirectTo: string; loginHint?: string | undefined; testBy?: string | undefined },
): Promise<{ url: string; browserKey: string }> {
  const config = await configurationOf(provider);
  const state = client.randomState();
  const nonce = client.randomNonce();
  // PKCE where the provider says it takes it: one that does not (Glewlwyd's default) refuses a sign-in that
  // sends it, and the nonce in the signed ID token then binds the code to this sign-in instead.
  const pkce = config.serverMetadata().supportsPKCE();
  const codeVerifier = pkce ? client.randomPKCECodeVerifier() : "";
  const browserKey = randomToken();
  await db.delete(ssoLogins).where(lt(ssoLogins.expiresAt, sql`now()`));
  await db.insert(ssoLogins).values({
    stateHash: tokenHash(state),
    providerId: provider.id,
    browserHash: tokenHash(browserKey),
    codeVerifier,
    nonce,
    redirectTo: options.redirectTo,
    testBy: options.testBy ?? null,
    expiresAt: new Date(Date.now() + LOGIN_TTL_MS),
  });
  const supported = config.serverMetadata().scopes_supported;
  const scopes = [...ALWAYS_SCOPES, ...LISTED_SCOPES.filter((scope) => supported?.includes(scope))];
  const parameters: Record<string, string> = { redirect_uri: callbackUrl(), scope: scopes.join(" "), state, nonce };
  if (pkce) {
    parameters.code_challenge = await client.calculatePKCECodeChallenge(codeVerifier);
    parameters.code_challenge_method = "S256";
  }
  if (options.loginHint) parameters.login_hint = options.loginHint;
  return { url: client.buildAuthorizationUrl(config, parameters).href, browserKey };
}

/**
 * The claims of the ID token first, then those of the userinfo endpoint (same
 * provider, same subject) for what the token left out.
 */
function claimsOf(idToken: client.IDToken, userInfo: Record<string, unknown>): ProviderClaims {
  const text: Record<string, string> = {};
  for (const [name, value] of [...Object.entries(userInfo), ...Object.entries(idToken)]) {
    if (typeof value === "string" && value.trim()) text[name] = value.trim();
  }
  const verified = idToken.email_verified ?? userInfo.email_verified;
  return {
    issuer: idToken.iss,
    subject: idToken.sub,
    // Some providers send the flag as text; one that sends none (Microsoft Entra ID) vouches for its own domains.
    emailVerified:
      verified === true || verified === "true" ? true : verified === false || verified === "false" ? false : null,
    text,
  };
}

export type FinishFailure = { outcome: "expired" | "failed" | "unavailable"; reason: string };

type PendingLogin = typeof ssoLogins.$inferSelect;

/**
 * Takes the pending sign-in a provider's answer names by its state. It is
 * deleted as it is read, so an answer is used at most once (a replayed
 * callback finds nothing); it must be unexpired and come back to the browser
 * that started it (for a sign-in a SAML provider started itself, the browser
 * that posted its answer).
 */
export async function takeLogin(
  query: URLSearchParams,
  browserKey: string | null,
): Promise<{ outcome: "ok"; login: PendingLogin } | FinishFailure> {
  const state = query.get("state");
  if (!state || !browserKey) return { outcome: "expired", reason: "no state or no browser key" };
  const [login] = await db
    .delete(ssoLogins)
    .where(eq(ssoLogins.stateHash, tokenHash(state)))
    .returning();
  if (!login || login.expiresAt.getTime() < Date.now())
    return { outcome: "expired", reason: "unknown or expired state" };
  if (login.browserHash !== tokenHash(browserKey)) {
    return { outcome: "expired", reason: "the sign-in was started in another browser" };
  }
  return { outcome: "ok", login };
}

/**
 * Checks the provider's answer to a pending sign-in against the provider that
 * sign-in went to, and no other, and returns what it says of the person.
 */
export async function finishOidcSignIn(
  provider: OidcProvider,
  login: PendingLogin,
  query: URLSearchParams,
): Promise<{ outcome: "ok"; claims: ProviderClaims } | FinishFailure> {
  let config: client.Configuration;
  try {
    config = await configurationOf(provider);
  } catch (error) {
    return { outcome: "unavailable", reason: reasonOf(error) };
  }
  if (login.codeVerifier === null || !login.nonce) {
    return { outcome: "expired", reason: "not an OpenID Connect sign-in" };
  }
  const { nonce } = login;
  // Empty when the provider takes no PKCE (startOidcSignIn).
  const codeVerifier = login.codeVerifier || undefined;
  try {
    const currentUrl = new URL(callbackUrl());
    currentUrl.search = query.toString();
    const checks = {
      pkceCodeVerifier: codeVerifier,
      expectedState: query.get("state") ?? "",
      expectedNonce: nonce,
      idTokenExpected: true,
    };
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, checks);
    } catch (error) {
      // A provider that refuses the client's authentication has not used the code: the same code, once more,
      // with the secret in the form body.
      const posted = isRefusedClient(error) ? await postSecretFromNowOn(provider) : null;
      if (!posted) throw error;
      console.warn(
        `[sso] ${provider.name} refused the client secret in the Authorization header (${reasonOf(error)}): it is sent in the form body from now on`,
      );
      config = posted;
      tokens = await client.authorizationCodeGrant(config, currentUrl, checks);
    }
    const idToken = tokens.claims();
    if (!idToken) return { outcome: "failed", reason: "no ID token" };
    // The issuer the provider was saved with, exactly: never one worked out from the token.
    if (idToken.iss !== config.serverMetadata().issuer) {
      return {
        outcome: "failed",
        reason: `the ID token names another issuer: ${JSON.stringify(idToken.iss.slice(0, 200))}, the provider is saved with ${JSON.stringify(config.serverMetadata().issuer)}`,
      };
    }
    let userInfo: Record<string, unknown> = {};
    if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
      try {
        userInfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
      } catch (error) {
        console.warn(`[sso] ${provider.name}: the userinfo endpoint did not answer: ${reasonOf(error)}`);
      }
    }
    return { outcome: "ok", claims: claimsOf(idToken, userInfo) };
  } catch (error) {
    return { outcome: "failed", reason: reasonOf(error) };
  }
}
