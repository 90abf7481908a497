import { randomInt } from "node:crypto";
import { passkey } from "@better-auth/passkey";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError } from "better-auth/api";
import { twoFactor } from "better-auth/plugins/two-factor";
import { eq } from "drizzle-orm";
import type { FieldErrors } from "~/lib/action-result";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/lib/limits";
import { sendResetMail } from "../accounts/mails";
import { sessionHooks } from "../accounts/session-start";
import { type Database, getDatabaseHandle } from "../platform/db/client";
import { authSchema, passkeys, users } from "../platform/db/schema";
import { env } from "../platform/env";
import { learnAuthApi } from "../platform/log-redaction";
import { afterResponse } from "../platform/mail";
import { publish } from "../platform/realtime";
import { clearSignInFailures } from "../platform/throttle";
import { requiredProviderFor } from "../sso/providers";
import { authLogger } from "./auth-logger";
import { namecardAccounts } from "./auth-plugin";
import { namecardSso } from "./sso-plugin";

/**
 * The header our server sets to the client's address (from the socket, or from
 * X-Forwarded-For only with TRUST_PROXY); any incoming copy is dropped first.
 */
export const CLIENT_IP_HEADER = "x-namecard-client-ip";

const THIRTY_DAYS_S = 60 * 60 * 24 * 30;
const ONE_DAY_S = 60 * 60 * 24;
const ONE_HOUR_S = 60 * 60;

/**
 * Both spellings of a local address are the same site to a person, while to
 * better-auth's origin check they are two origins: both are trusted.
 */
function trustedOrigins(): string[] {
  const origin = new URL(env.PUBLIC_URL).origin;
  const origins = new Set([origin]);
  const url = new URL(origin);
  if (url.hostname === "localhost") origins.add(origin.replace("localhost", "127.0.0.1"));
  if (url.hostname === "127.0.0.1") origins.add(origin.replace("127.0.0.1", "localhost"));
  return [...origins];
}

function createAuth(database: Database) {
  return betterAuth({
    appName: "Namecard",
    logger: authLogger,
    // An error of its own (a refused password, an expired link) is answered by better-auth; any other
    // (the database unavailable, a defect) is thrown to the route, which answers it as every route does.
    onAPIError: { throw: true },
    baseURL: env.PUBLIC_URL,
    basePath: "/api/auth",
    secret: env.AUTH_SECRET,
    trustedOrigins: trustedOrigins(),
    database: drizzleAdapter(database, { provider: "pg", schema: authSchema, transaction: true }),
    user: {
      // Written by our own sign-up (accounts/sign-up.ts), never taken from a client.
      additionalFields: {
        firstName: { type: "string", required: false, input: false },
        lastName: { type: "string", required: false, input: false },
        phone: { type: "string", required: false, input: false },
        // Given and taken by administrators (accounts/roles.ts), never by a client.
        role: { type: "string", required: false, input: false },
      },
    },
    // Every session starts through these, whichever way the person signed in.
    databaseHooks: { session: sessionHooks },
    session: {
      expiresIn: THIRTY_DAYS_S,
      updateAge: ONE_DAY_S,
      // Set when the session starts (accounts/session-start.ts), never by a client.
      additionalFields: { secondFactor: { type: "boolean", required: false, defaultValue: false, input: false } },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: ONE_HOUR_S,
      async sendResetPassword({ user, token }) {
        // The link opens our page directly; the mail leaves after the response.
        await sendResetMail(user, `${env.PUBLIC_URL}/auth/reset-password?${new URLSearchParams({ token })}`);
      },
      async onPasswordReset({ user }) {
        // Whoever reset the password proved the mailbox: the account's sign-in wait is lifted.
        await clearSignInFailures(user.email);
        // Its sessions were revoked: their live-update streams end too.
        await publish({ kind: "user-sessions-ended", id: user.id });
      },
    },
    // Confirmation links are ours (accounts/email-links.ts): better-auth sends none.
    emailVerification: { sendOnSignUp: false, sendOnSignIn: false, autoSignInAfterVerification: false },
    plugins: [
      namecardAccounts({
        resetLater: (body) =>
          afterResponse("a password reset", async () => {
            await getAuth().api.requestPasswordReset({ body });
          }),
      }),
      namecardSso(),
      // An authenticator app after the password, with ten recovery codes; the secret and the codes are
      // kept encrypted with the server's secret (docs/decisions/043-a-second-factor.md).
      twoFactor({
        issuer: "Namecard",
        backupCodeOptions: { storeBackupCodes: "encrypted", customBackupCodesGenerate: recoveryCodes },
        // A device is never trusted to skip the code: a stolen laptop's cookie would be a second factor.
        trustDeviceMaxAge: 1,
      }),
      // A passkey is a sign-in of its own: the device proves both that it holds the key and that its owner unlocked it.
      passkey({
        rpID: new URL(env.PUBLIC_URL).hostname,
        rpName: "Namecard",
        origin: new URL(env.PUBLIC_URL).origin,
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
        authentication: {
          async afterVerification({ verification, clientData }) {
            if (!verification.authenticationInfo.userVerified) {
              throw new APIError("UNAUTHORIZED", {
                message: "Your device did not ask who you are. Unlock it with your fingerprint, face or PIN.",
                code: "USER_NOT_VERIFIED",
              });
            }
            // A domain that requires the company's provider signs in there, passkey or not.
            const provider = await providerRequiredForPasskey(clientData.id);
            if (provider) {
              throw new APIError("FORBIDDEN", {
                message: `Your company signs you in with ${provider}. Use its button below.`,
                code: "SSO_REQUIRED",
              });
            }
          },
        },
      }),
    ],
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 120,
      customRules: {
        "/sign-in/email": { window: 60, max: 5 },
        "/sign-up/email": { window: 60, max: 5 },
        "/request-password-reset": { window: 60, max: 3 },
        "/send-verification-email": { window: 60, max: 3 },
        "/reset-password": { window: 60, max: 5 },
        "/confirm-email": { window: 60, max: 10 },
        "/resend-confirmation": { window: 60, max: 3 },
        "/sign-in/sso": { window: 60, max: 10 },
        "/get-session": false,
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: env.PUBLIC_URL.startsWith("https://"),
      cookiePrefix: "namecard",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
    // Namecard ships no OpenTelemetry: its spans were only work on every request (3% of a signed-in page).
    experimental: { instrumentation: { enabled: false } },
  });
}

/** Letters and digits nobody mistakes for another when reading them off paper: no 0/o, 1/l/i. */
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten recovery codes of ten characters (about 50 bits each), written as two groups of five: "k7m2q-x9fhr". */
function recoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const code = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** The name of the provider the owner of this passkey must sign in through, if their domain requires one. */
async function providerRequiredForPasskey(credentialId: string): Promise<string | null> {
  const [owner] = await getDatabaseHandle()
    .db.select({ email: users.email })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialID, credentialId))
    .limit(1);
  return owner ? ((await requiredProviderFor(owner.email))?.name ?? null) : null;
}

export type Auth = ReturnType<typeof createAuth>;

let instance: { auth: Auth; database: Database } | undefined;

/** The better-auth instance bound to the database that is open now. */
export function getAuth(): Auth {
  const database = getDatabaseHandle().db;
  if (!instance || instance.database !== database) {
    instance = { auth: createAuth(database), database };
    learnAuthApi(instance.auth);
  }
  return instance.auth;
}

export type AuthResult<T> =
  | { ok: true; data: T; headers: Headers; status: number }
  | { ok: false; message: string; code?: string; fieldErrors?: FieldErrors; status: number; headers: Headers };

/**
 * Calls one better-auth endpoint through its HTTP handler, as the browser
 * would, so its rate limits, origin checks and cookies all apply. Route actions
 * use this and copy the returned `Set-Cookie` headers onto their response.
 */
export async function callAuth<T = unknown>(
  request: Request,
  endpoint: string,
  body?: Record<string, unknown>,
): Promise<AuthResult<T>> {
  const headers = new Headers({ origin: new URL(env.PUBLIC_URL).origin });
  for (const name of ["cookie", "user-agent", "accept-language", CLIENT_IP_HEADER]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (body) headers.set("content-type", "application/json");
  const response = await getAuth().handler(
    new Request(`${env.PUBLIC_URL}/api/auth${endpoint}`, {
      method: body ? "POST" : "GET",
      headers,
      body: body ? JSON.stringify(body) : undefined,
    }),
  );
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (response.ok) {
    return { ok: true, data: parsed as T, headers: response.headers, status: response.status };
  }
  const error = (parsed ?? {}) as { message?: string; code?: string; fieldErrors?: FieldErrors };
  // Our own refusals (a throttled account, an address's mail quota) say what to do; better-auth's per-address limit does not.
  const message =
    response.status === 429 && !error.code
      ? "Too many attempts. Please wait a minute and try again."
      : error.message || "An error occurred";
  return {
    ok: false,
    message,
    code: error.code,
    fieldErrors: error.fieldErrors,
    status: response.status,
    headers: response.headers,
  };
}

/** Copies the `Set-Cookie` headers of an auth response onto a new header set. */
export function cookieHeaders(from: Headers, into = new Headers()): Headers {
  for (const cookie of from.getSetCookie()) into.append("set-cookie", cookie);
  return into;
}
