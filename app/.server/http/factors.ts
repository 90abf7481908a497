import { isAPIError } from "better-auth/api";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { mustUseSecondFactor } from "../accounts/second-factor";
import { db } from "../platform/db/client";
import { accounts, passkeys, twoFactors } from "../platform/db/schema";
import { getSiteSettings } from "../platform/site-settings";
import { qrSvg } from "../profiles/qr";
import { getAuth } from "./auth";
import type { Viewer } from "./authz";

/**
 * An account's second factors (docs/decisions/043-a-second-factor.md), set up
 * and removed through better-auth's two-factor and passkey plugins, called from
 * the account's own pages after their checks: the plugins' endpoints that change
 * factors are not open to the browser (auth-plugin.ts).
 */

/** What the set-up shows: the app's QR code, the same key to type, and the recovery codes. */
export type AuthenticatorSetup = { uri: string; key: string; qr: string; recoveryCodes: string[] };

/** A refusal in words, with the field it belongs to. */
export type FactorRefusal = { field: "password" | "code" | "name" | null; message: string; status: number };

const WRONG_PASSWORD = "That is not your password.";
const WRONG_CODE = "That code is not right. Enter the 6 digits your app shows now.";

/** What each of better-auth's refusals tells the person, in our words. */
function refusalOf(error: unknown): FactorRefusal {
  if (!isAPIError(error)) throw error;
  const code = (error.body as { code?: string } | undefined)?.code;
  switch (code) {
    case "INVALID_PASSWORD":
      return { field: "password", message: WRONG_PASSWORD, status: 400 };
    case "INVALID_CODE":
    case "OTP_HAS_EXPIRED":
      return { field: "code", message: WRONG_CODE, status: 400 };
    case "ACCOUNT_TEMPORARILY_LOCKED":
    case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
      return { field: "code", message: "Too many wrong codes. Wait 15 minutes, then try again.", status: 429 };
    case "TOTP_ALREADY_ENABLED":
      return { field: null, message: "Your authenticator app is set up already.", status: 409 };
    case "PREVIOUSLY_REGISTERED":
      return { field: null, message: "This passkey is saved already.", status: 409 };
    default:
      return {
        field: null,
        message: "That did not work. Try again; if it keeps failing, your administrator can see why in the server log.",
        status: 400,
      };
  }
}

/** The key inside an otpauth:// address, in groups of four, for typing into an app by hand. */
function keyOf(uri: string): string {
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

/** The QR code and key of an app's set-up address, as the set-up page shows them again after a wrong code. */
export async function showSetup(uri: string, recoveryCodes: string[]): Promise<AuthenticatorSetup> {
  return {
    uri,
    key: keyOf(uri),
    qr: await qrSvg(uri, { errorCorrectionLevel: "M", width: 200, margin: 2 }),
    recoveryCodes,
  };
}

/** What a set-up page sends back with the code: the address and codes it showed, checked for shape only. */
export const SetupEchoSchema = z.object({
  uri: z
    .string()
    .max(600)
    .regex(/^otpauth:\/\/totp\/[^\s]+$/),
  recoveryCodes: z
    .string()
    .max(400)
    .transform((value) => value.split(/\s+/).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[A-Za-z0-9-]{1,32}$/)).max(10)),
});

/** Begins setting up the app: checks the password, makes the secret and ten recovery codes (nothing counts until a code is entered). */
export async function beginAuthenticator(
  request: Request,
  password: string,
): Promise<{ setup: AuthenticatorSetup } | FactorRefusal> {
  const issuer = (await getSiteSettings()).companyName;
  try {
    const started = await getAuth().api.enableTwoFactor({ body: { password, issuer }, headers: request.headers });
    if (!("totpURI" in started) || !started.totpURI) throw new Error("no authenticator address");
    return { setup: await showSetup(started.totpURI, started.backupCodes ?? []) };
  } catch (error) {
    return refusalOf(error);
  }
}

/**
 * Finishes the set-up with a code from the app. better-auth then starts a new
 * session, which rests on the app: its cookie is in the returned headers.
 */
export async function confirmAuthenticator(
  request: Request,
  code: string,
): Promise<{ headers: Headers } | FactorRefusal> {
  try {
    const { headers } = await getAuth().api.verifyTOTP({
      body: { code },
      headers: request.headers,
      returnHeaders: true,
    });
    return { headers };
  } catch (error) {
    return refusalOf(error);
  }
}

/** Turns the app off, with the password; never while the account must use a second factor. */
export async function turnOffAuthenticator(
  request: Request,
  viewer: Viewer,
  password: string,
): Promise<{ headers: Headers } | FactorRefusal> {
  if (await mustUseSecondFactor({ email: viewer.user.email, role: viewer.role })) {
    return {
      field: null,
      message: "Your company asks for a second step at sign-in: set up another app before removing this one.",
      status: 409,
    };
  }
  try {
    const { headers } = await getAuth().api.disableTwoFactor({
      body: { password },
      headers: request.headers,
      returnHeaders: true,
    });
    return { headers };
  } catch (error) {
    return refusalOf(error);
  }
}

/** Ten new recovery codes, with the password: the old ones stop working. */
export async function newRecoveryCodes(
  request: Request,
  password: string,
): Promise<{ codes: string[] } | FactorRefusal> {
  try {
    const made = await getAuth().api.generateBackupCodes({ body: { password }, headers: request.headers });
    return { codes: made.backupCodes };
  } catch (error) {
    return refusalOf(error);
  }
}

export type PasskeyRow = { id: string; name: string; createdAt: string | null; backedUp: boolean };

/** What the account's security page shows: whether the app is set up, and each passkey. */
export async function factorsOf(userId: string) {
  const [app] = await db
    .select({ verified: twoFactors.verified })
    .from(twoFactors)
    .where(eq(twoFactors.userId, userId))
    .limit(1);
  const [password] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
    .limit(1);
  const keys = await db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, backedUp: passkeys.backedUp })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  return {
    authenticator: app?.verified === true,
    hasPassword: password !== undefined,
    passkeys: keys.map<PasskeyRow>((key) => ({
      id: key.id,
      name: key.name || "Passkey",
      createdAt: key.createdAt?.toISOString() ?? null,
      backedUp: key.backedUp,
    })),
  };
}

/** The options a browser needs to make a passkey for this account, and the cookie that holds their challenge. */
export async function passkeyRegistrationOptions(request: Request) {
  const { headers, response } = await getAuth().api.generatePasskeyRegistrationOptions({
    headers: request.headers,
    returnHeaders: true,
  });
  return { options: response, headers };
}

export const PasskeyNameSchema = z
  .string()
  .trim()
  .max(60, "Use at most 60 characters")
  .transform((value) => value.replace(/[\p{Cc}\p{Cf}]/gu, ""));

/** Keeps the passkey the browser made, after checking it answers this account's challenge. */
export async function registerPasskey(
  request: Request,
  response: unknown,
  name: string,
): Promise<{ ok: true } | FactorRefusal> {
  try {
    await getAuth().api.verifyPasskeyRegistration({
      // The browser's answer is checked by the plugin against the challenge it issued.
      body: { response: response as never, name: name || undefined },
      headers: request.headers,
    });
    return { ok: true };
  } catch (error) {
    return refusalOf(error);
  }
}

/** Removes one of the account's own passkeys; another account's id removes nothing. */
export async function removePasskey(userId: string, id: string): Promise<boolean> {
  const removed = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return removed.length > 0;
}
