import { isAPIError } from "better-auth/api";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { type SecondFactorChange, sendSecondFactorMail } from "../accounts/mails";
import { hasPassword, mustUseSecondFactor } from "../accounts/second-factor";
import { db } from "../platform/db/client";
import { passkeys, sessions, twoFactors } from "../platform/db/schema";
import { getSiteSettings } from "../platform/site-settings";
import { clearSignInFailures, recordSignInFailure, signInWait, waitText } from "../platform/throttle";
import { qrSvg } from "../profiles/qr";
import { getAuth } from "./auth";
import type { Viewer } from "./authz";

/**
 * An account's second factors (docs/decisions/043-a-second-factor.md), set up
 * and removed through better-auth's two-factor and passkey plugins, called from
 * the account's own pages after their checks: the plugins' endpoints that change
 * factors are not open to the browser (auth-plugin.ts).
 */

/** Whose factor changes: the account, and the name its mails greet. */
export type FactorOwner = { id: string; email: string; firstName?: string | null };

/**
 * The account's password, checked before any factor changes and counted as a sign-in attempt:
 * a held session cannot guess it faster than the sign-in page allows.
 */
async function confirmPassword(owner: FactorOwner, password: string): Promise<FactorRefusal | null> {
  const wait = await signInWait(owner.email);
  if (wait > 0) {
    return {
      field: "password",
      message: `Too many wrong passwords for this account. Try again in ${waitText(wait)}.`,
      status: 429,
    };
  }
  const context = await getAuth().$context;
  const hash = (await context.internalAdapter.findAccounts(owner.id)).find(
    (account) => account.providerId === "credential",
  )?.password;
  if (!hash)
    return {
      field: null,
      message: "Your account has no password here: it signs in through your company.",
      status: 409,
    };
  if (!(await context.password.verify({ hash, password }))) {
    await recordSignInFailure(owner.email);
    return { field: "password", message: WRONG_PASSWORD, status: 400 };
  }
  await clearSignInFailures(owner.email);
  return null;
}

/** Tells the owner what changed, after it changed: a failure to queue the mail undoes nothing. */
function tell(owner: FactorOwner, change: SecondFactorChange) {
  return sendSecondFactorMail(owner, change).catch((error: unknown) => {
    console.error(`[second factor] the mail about a change could not be queued: ${(error as Error).message}`);
  });
}

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
async function showSetup(uri: string, recoveryCodes: string[]): Promise<AuthenticatorSetup> {
  return {
    uri,
    key: keyOf(uri),
    qr: await qrSvg(uri, { errorCorrectionLevel: "M", width: 200, margin: 2 }),
    recoveryCodes,
  };
}

/** What a page shows after one of these steps: the set-up to go on with, and what to correct. */
export type FactorAnswer = {
  setup?: AuthenticatorSetup;
  fieldErrors?: { password?: string[]; code?: string[] };
  formError?: string;
};

/** A refusal as the page shows it: beside its field, or above the form. */
export function refusalAnswer(
  refusal: FactorRefusal,
  setup?: AuthenticatorSetup,
): { status: number; body: FactorAnswer } {
  const body: FactorAnswer = refusal.field
    ? { setup, fieldErrors: { [refusal.field === "code" ? "code" : "password"]: [refusal.message] } }
    : { setup, formError: refusal.message };
  return { status: refusal.status, body };
}

/** What the person reads once the app is on. */
export const APP_ON = "Your authenticator app is on. Sign-ins with your password now ask for its code.";

/**
 * One step of setting the app up, the same on the account's Security page and on the set-up a
 * sign-in owes: the password first (`app-begin`), then the app's first code (`app-confirm`), which
 * the page sends back with the set-up it showed. Done, it returns the new session's cookie.
 */
export async function authenticatorStep(
  request: Request,
  owner: FactorOwner,
  form: FormData,
): Promise<{ on: Headers } | { status: number; body: FactorAnswer }> {
  if (form.get("intent") !== "app-confirm") {
    const password = String(form.get("password") ?? "");
    if (!password) return { status: 400, body: { fieldErrors: { password: ["Enter your password"] } } };
    const begun = await beginAuthenticator(request, owner, password);
    return "message" in begun ? refusalAnswer(begun) : { status: 200, body: { setup: begun.setup } };
  }
  const echo = SetupEchoSchema.safeParse({ uri: form.get("uri"), recoveryCodes: form.get("recoveryCodes") ?? "" });
  if (!echo.success) return { status: 400, body: { formError: "Start again: enter your password." } };
  const setup = await showSetup(echo.data.uri, echo.data.recoveryCodes);
  const code = String(form.get("code") ?? "").replace(/\s/g, "");
  if (!/^\d{6}$/.test(code)) {
    return { status: 400, body: { setup, fieldErrors: { code: ["Enter the 6 digits your app shows"] } } };
  }
  const confirmed = await confirmAuthenticator(request, owner, code);
  return "message" in confirmed ? refusalAnswer(confirmed, setup) : { on: confirmed.headers };
}

/** What a set-up page sends back with the code: the address and codes it showed, checked for shape only. */
const SetupEchoSchema = z.object({
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
async function beginAuthenticator(
  request: Request,
  owner: FactorOwner,
  password: string,
): Promise<{ setup: AuthenticatorSetup } | FactorRefusal> {
  const refused = await confirmPassword(owner, password);
  if (refused) return refused;
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
async function confirmAuthenticator(
  request: Request,
  owner: FactorOwner,
  code: string,
): Promise<{ headers: Headers } | FactorRefusal> {
  let headers: Headers;
  try {
    ({ headers } = await getAuth().api.verifyTOTP({ body: { code }, headers: request.headers, returnHeaders: true }));
  } catch (error) {
    return refusalOf(error);
  }
  // Sessions that rested on the password alone end: from now on the password is not enough.
  await db.delete(sessions).where(and(eq(sessions.userId, owner.id), eq(sessions.secondFactor, false)));
  await tell(owner, "app-on");
  return { headers };
}

/** Turns the app off, with the password; never while the account must use a second factor. */
export async function turnOffAuthenticator(
  request: Request,
  viewer: Viewer,
  password: string,
): Promise<{ headers: Headers } | FactorRefusal> {
  const owner = ownerOf(viewer);
  if (await mustUseSecondFactor({ email: viewer.user.email, role: viewer.role, brandIds: viewer.brandIds })) {
    return {
      field: null,
      message: "Your company asks for a second step at sign-in: set up another app before removing this one.",
      status: 409,
    };
  }
  const refused = await confirmPassword(owner, password);
  if (refused) return refused;
  try {
    const { headers } = await getAuth().api.disableTwoFactor({
      body: { password },
      headers: request.headers,
      returnHeaders: true,
    });
    await tell(owner, "app-off");
    return { headers };
  } catch (error) {
    return refusalOf(error);
  }
}

/** The account behind a signed-in viewer, as the factor changes name it. */
export function ownerOf(viewer: Viewer): FactorOwner {
  return { id: viewer.user.id, email: viewer.user.email, firstName: viewer.profile?.firstName ?? null };
}

/** Ten new recovery codes, with the password: the old ones stop working. */
export async function newRecoveryCodes(
  request: Request,
  owner: FactorOwner,
  password: string,
): Promise<{ codes: string[] } | FactorRefusal> {
  const refused = await confirmPassword(owner, password);
  if (refused) return refused;
  try {
    const made = await getAuth().api.generateBackupCodes({ body: { password }, headers: request.headers });
    await tell(owner, "new-codes");
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
  const keys = await db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, backedUp: passkeys.backedUp })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  return {
    authenticator: app?.verified === true,
    hasPassword: await hasPassword(userId),
    passkeys: keys.map<PasskeyRow>((key) => ({
      id: key.id,
      name: key.name || "Passkey",
      createdAt: key.createdAt?.toISOString() ?? null,
      backedUp: key.backedUp,
    })),
  };
}

/**
 * The options a browser needs to make a passkey for this account, and the cookie that holds
 * their challenge; only with the account's password, since a passkey is a sign-in of its own.
 */
export async function passkeyRegistrationOptions(
  request: Request,
  owner: FactorOwner,
  password: string,
): Promise<{ options: unknown; headers: Headers } | FactorRefusal> {
  const refused = await confirmPassword(owner, password);
  if (refused) return refused;
  try {
    const { headers, response } = await getAuth().api.generatePasskeyRegistrationOptions({
      headers: request.headers,
      returnHeaders: true,
    });
    return { options: response, headers };
  } catch (error) {
    // better-auth asks for a session started within the day before a passkey is added.
    if (isAPIError(error) && error.status === "FORBIDDEN") {
      return { field: null, message: "For your safety, sign out and in again, then add the passkey.", status: 403 };
    }
    return refusalOf(error);
  }
}

export const PasskeyNameSchema = z
  .string()
  .trim()
  .max(60, "Use at most 60 characters")
  .transform((value) => value.replace(/[\p{Cc}\p{Cf}]/gu, ""));

/** Keeps the passkey the browser made, after checking it answers this account's challenge. */
export async function registerPasskey(
  request: Request,
  owner: FactorOwner,
  response: unknown,
  name: string,
): Promise<{ ok: true } | FactorRefusal> {
  try {
    await getAuth().api.verifyPasskeyRegistration({
      // The browser's answer is checked by the plugin against the challenge it issued.
      body: { response: response as never, name: name || undefined },
      headers: request.headers,
    });
    await tell(owner, "passkey-added");
    return { ok: true };
  } catch (error) {
    return refusalOf(error);
  }
}

/** Removes one of the account's own passkeys; another account's id removes nothing. */
export async function removePasskey(owner: FactorOwner, id: string): Promise<boolean> {
  const removed = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, owner.id)))
    .returning({ id: passkeys.id });
  if (removed.length > 0) await tell(owner, "passkey-removed");
  return removed.length > 0;
}
