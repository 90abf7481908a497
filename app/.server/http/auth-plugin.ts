import type { BetterAuthPlugin, GenericEndpointContext } from "better-auth";
import { APIError, createAuthEndpoint, createAuthMiddleware, isAPIError } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import type { z } from "zod";
import { type ConfirmedUser, confirmSignUp, pendingSignUp } from "../accounts/confirm-sign-up";
import { weakPasswordMessage } from "../accounts/password-strength";
import { resetTokenEmail } from "../accounts/reset-tokens";
import {
  AcceptInvitationBodySchema,
  ConfirmBodySchema,
  EmptyBodySchema,
  RequestResetBodySchema,
  ResendBodySchema,
  ResetBodySchema,
  SignInBodySchema,
  SignUpBodySchema,
} from "../accounts/schemas";
import { resendConfirmation, signUp } from "../accounts/sign-up";
import { acceptInvitation, viewInvitation } from "../invitations/accept";
import {
  clearSignInFailures,
  MAILS_PER_ADDRESS_PER_HOUR,
  recordSignInFailure,
  signInWait,
  takeMailQuota,
  waitText,
} from "../platform/throttle";
import { randomToken } from "../platform/tokens";
import { fieldErrors } from "../platform/validation";
import { ssoRequiredMessage } from "../sso/messages";
import { requiredProviderFor } from "../sso/providers";

const ONE_DAY_S = 60 * 60 * 24;

export const TOO_MANY_MAILS = `We have already sent ${MAILS_PER_ADDRESS_PER_HOUR} emails to this address in the last hour. Use the newest link we sent, or try again later.`;
const CHOOSE_PASSWORD = "Choose a password";
export const INVALID_LINK = "This link is invalid, was already used, or has been replaced by a newer one.";

/**
 * Every path of better-auth's API that is open, by method. The rest of its
 * endpoints (update-user, change-email, delete-user, sessions, social
 * accounts…) are not used by Namecard and respond 404, so no field of theirs
 * can be sent (docs/decisions/009-mailbox-owner-decides.md).
 */
const OPEN_ENDPOINTS = new Set([
  "POST /sign-up/email",
  "POST /sign-in/email",
  "POST /sign-out",
  "GET /get-session",
  "POST /request-password-reset",
  "POST /reset-password",
  "GET /confirm-email",
  "POST /confirm-email",
  "POST /resend-confirmation",
  "POST /accept-invitation",
  "POST /sign-in/sso",
  "GET /sso/callback",
  "POST /sso/confirm-admin",
  // Signing in with a second factor (docs/decisions/043-a-second-factor.md): the code after the password, and
  // a passkey. Setting factors up and removing them goes through the account's security page, which checks first.
  "POST /two-factor/verify-totp",
  "POST /two-factor/verify-backup-code",
  "GET /passkey/generate-authenticate-options",
  "POST /passkey/verify-authentication",
]);

function refuse(error: z.ZodError): never {
  throw new APIError("BAD_REQUEST", {
    message: error.issues[0]?.message ?? "The request is not valid",
    code: "INVALID_INPUT",
    fieldErrors: fieldErrors(error),
  });
}

/** Parses a body with the form's own schema; a failure is a 400 naming the field. */
function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) refuse(parsed.error);
  return parsed.data;
}

async function assertStrong(password: string, related: string[], field: string) {
  const weak = await weakPasswordMessage(password, related);
  if (weak)
    throw new APIError("BAD_REQUEST", { message: weak, code: "WEAK_PASSWORD", fieldErrors: { [field]: [weak] } });
}

function tooManyMails(): never {
  throw new APIError("TOO_MANY_REQUESTS", { message: TOO_MANY_MAILS, code: "TOO_MANY_MAILS" });
}

/** An address outside the company's sign-up rule: said on the email field. */
function notAllowedToJoin(message: string): never {
  throw new APIError("FORBIDDEN", { message, code: "NOT_ALLOWED_TO_JOIN", fieldErrors: { email: [message] } });
}

/**
 * People of a domain that requires single sign-on use their provider: no
 * password sign-in, sign-up, reset or confirmation mail. ADMIN_EMAILS keep
 * theirs (requiredProviderFor).
 */
async function assertPasswordAllowed(email: string, field?: string) {
  const provider = await requiredProviderFor(email);
  if (!provider) return;
  const message = ssoRequiredMessage(provider.name);
  throw new APIError("FORBIDDEN", {
    message,
    code: "SSO_REQUIRED",
    providerId: provider.id,
    ...(field ? { fieldErrors: { [field]: [message] } } : {}),
  });
}

type EndpointContext = GenericEndpointContext;

/** The cookie that lets the browser which made a sign-up confirm it without typing the password again. */
function pendingCookie(ctx: EndpointContext) {
  return ctx.context.createAuthCookie("pending_sign_up", { maxAge: ONE_DAY_S });
}

/**
 * The browser an account signed in from: a signed cookie naming the address
 * and a random id of the browser. Failed sign-ins from it count against it
 * alone, so a stranger's guesses, which slow the account everywhere else,
 * never keep the owner out of a browser they used before.
 */
function knownDeviceCookie(ctx: EndpointContext) {
  return ctx.context.createAuthCookie("known_device", { maxAge: 400 * ONE_DAY_S });
}

async function knownDevice(ctx: EndpointContext, email: string): Promise<string | null> {
  const value = await ctx.getSignedCookie(knownDeviceCookie(ctx).name, ctx.context.secret);
  if (!value) return null;
  const separator = value.lastIndexOf("|");
  const owner = value.slice(0, separator);
  const id = value.slice(separator + 1);
  return separator > 0 && owner === email.trim().toLowerCase() && /^[\w-]{16,}$/.test(id) ? id : null;
}

async function rememberDevice(ctx: EndpointContext, email: string, id: string | null) {
  const cookie = knownDeviceCookie(ctx);
  const value = `${email.trim().toLowerCase()}|${id ?? randomToken()}`;
  await ctx.setSignedCookie(cookie.name, value, ctx.context.secret, cookie.attributes);
}

/** Starts a session through better-auth's adapter, so the one way in (session-start.ts) decides. */
export async function startSession(ctx: EndpointContext, user: ConfirmedUser) {
  const session = await ctx.context.internalAdapter.createSession(user.id);
  if (!session) throw new APIError("INTERNAL_SERVER_ERROR", { message: "Could not start a session" });
  await setSessionCookie(ctx, { session, user });
  const cookie = pendingCookie(ctx);
  ctx.setCookie(cookie.name, "", { ...cookie.attributes, maxAge: 0 });
}

type ResetRequest = { email: string; redirectTo?: string | undefined };

/**
 * `resetLater` makes the reset (the account's lookup, its token and its mail)
 * after the response, through better-auth's own endpoint called without a
 * request: the response is the same work whether or not the account exists.
 */
export function namecardAccounts(options: { resetLater: (body: ResetRequest) => void }) {
  return {
    id: "namecard-accounts",
    async onRequest(request, context) {
      const base = new URL(context.baseURL).pathname.replace(/\/+$/, "");
      const path = new URL(request.url).pathname.slice(base.length);
      // Links from before sign-up links had state of their own: they no longer work.
      if (request.method === "GET" && path === "/verify-email") {
        return {
          response: new Response(null, { status: 302, headers: { Location: "/auth/verified?error=INVALID_TOKEN" } }),
        };
      }
      if (!OPEN_ENDPOINTS.has(`${request.method} ${path}`)) {
        return { response: Response.json({ message: "Not found", code: "NOT_FOUND" }, { status: 404 }) };
      }
    },
    endpoints: {
      /** Replaces better-auth's own sign-up: the mailbox owner decides the password. */
      signUpEmail: createAuthEndpoint("/sign-up/email", { method: "POST" }, async (ctx) => {
        const body = parseBody(SignUpBodySchema, ctx.body);
        await assertPasswordAllowed(body.email, "email");
        await assertStrong(body.password, [body.firstName, body.lastName, body.email], "password");
        const result = await signUp({
          fields: {
            firstName: body.firstName,
            lastName: body.lastName,
            email: body.email,
            phone: body.phone ?? null,
            redirectTo: body.callbackURL,
          },
          passwordHash: await ctx.context.password.hash(body.password),
        });
        if (result.outcome === "too-many") tooManyMails();
        if (result.outcome === "not-allowed") notAllowedToJoin(result.message);
        const cookie = pendingCookie(ctx);
        ctx.setCookie(cookie.name, result.browserKey, cookie.attributes);
        return ctx.json({ status: true });
      }),

      /** The emailed link. */
      openConfirmationLink: createAuthEndpoint("/confirm-email", { method: "GET" }, async (ctx) => {
        const token = typeof ctx.query?.token === "string" ? ctx.query.token : "";
        const result = await confirmSignUp({ token, browserKey: ctx.getCookie(pendingCookie(ctx).name) ?? null });
        if (result.outcome === "confirmed") {
          // The company required its provider after the link was sent: the address is confirmed, no password session.
          if (await requiredProviderFor(result.user.email)) throw ctx.redirect("/auth?sso=required");
          try {
            await startSession(ctx, result.user);
          } catch (error) {
            // A link opened in a browser gets a page, not the refusal's JSON.
            if (isAPIError(error) && error.body?.code === "CARD_DEACTIVATED") {
              throw ctx.redirect("/auth/verified?error=CARD_DEACTIVATED");
            }
            throw error;
          }
          throw ctx.redirect(result.redirectTo);
        }
        if (result.outcome === "needs-details") {
          throw ctx.redirect(`/auth/confirm?${new URLSearchParams({ token })}`);
        }
        if (result.outcome === "not-allowed") throw ctx.redirect("/auth/verified?error=NOT_ALLOWED_TO_JOIN");
        throw ctx.redirect("/auth/verified?error=INVALID_TOKEN");
      }),

      /** The confirmation page's form, in a browser that did not make the sign-up. */
      confirmWithDetails: createAuthEndpoint("/confirm-email", { method: "POST" }, async (ctx) => {
        const body = parseBody(ConfirmBodySchema, ctx.body);
        // The company required its provider after the link was sent: no password is set.
        const pending = await pendingSignUp(body.token);
        if (pending) await assertPasswordAllowed(pending.email);
        await assertStrong(body.password, [body.firstName, body.lastName], "password");
        const result = await confirmSignUp({
          token: body.token,
          browserKey: null,
          details: {
            firstName: body.firstName,
            lastName: body.lastName,
            phone: body.phone,
            passwordHash: await ctx.context.password.hash(body.password),
          },
        });
        // The confirmation form has no address field: the message stands above the form.
        if (result.outcome === "not-allowed") {
          throw new APIError("FORBIDDEN", { message: result.message, code: "NOT_ALLOWED_TO_JOIN" });
        }
        if (result.outcome !== "confirmed") {
          throw new APIError("BAD_REQUEST", { message: INVALID_LINK, code: "INVALID_TOKEN" });
        }
        await startSession(ctx, result.user);
        return ctx.json({ status: true, redirectTo: result.redirectTo });
      }),

      /**
       * An invitation's link (docs/decisions/021-invitations-and-the-mail-queue.md): with a new
       * password the card is claimed and its person signed in; for an address
       * with a confirmed account the card is added to it, and they sign in
       * with their own password.
       */
      acceptInvitation: createAuthEndpoint("/accept-invitation", { method: "POST" }, async (ctx) => {
        const body = parseBody(AcceptInvitationBodySchema, ctx.body);
        if (body.password) {
          const view = await viewInvitation(body.token);
          if (view.state === "choose-password") await assertPasswordAllowed(view.email, "password");
          const related = view.state === "choose-password" ? [view.firstName, view.lastName, view.email] : [];
          await assertStrong(body.password, related, "password");
        }
        const result = await acceptInvitation({
          token: body.token,
          passwordHash: body.password ? await ctx.context.password.hash(body.password) : null,
        });
        switch (result.outcome) {
          case "claimed":
            await startSession(ctx, result.user);
            return ctx.json({ outcome: result.outcome, username: result.profile.username });
          case "linked":
            return ctx.json({ outcome: result.outcome, username: result.profile.username });
          case "has-card":
            return ctx.json({ outcome: result.outcome, username: null });
          case "needs-password":
            throw new APIError("BAD_REQUEST", {
              message: CHOOSE_PASSWORD,
              code: "INVALID_INPUT",
              fieldErrors: { password: [CHOOSE_PASSWORD] },
            });
          default:
            throw new APIError("BAD_REQUEST", { message: INVALID_LINK, code: "INVALID_TOKEN" });
        }
      }),

      /**
       * Sends the newest link again. With the pending password (a sign-in
       * that was refused only because the address is unconfirmed), this
       * browser may then confirm without typing it again.
       */
      resendConfirmation: createAuthEndpoint("/resend-confirmation", { method: "POST" }, async (ctx) => {
        const body = parseBody(ResendBodySchema, ctx.body);
        await assertPasswordAllowed(body.email);
        let proven = false;
        if (body.password) {
          const found = await ctx.context.internalAdapter.findUserByEmail(body.email, { includeAccounts: true });
          const hash = found?.accounts.find((account) => account.providerId === "credential")?.password;
          proven =
            !!found &&
            !found.user.emailVerified &&
            !!hash &&
            (await ctx.context.password.verify({ hash, password: body.password }));
        }
        const result = await resendConfirmation({ email: body.email, rebindBrowser: proven });
        if (result.outcome === "too-many") tooManyMails();
        if (result.browserKey) {
          const cookie = pendingCookie(ctx);
          ctx.setCookie(cookie.name, result.browserKey, cookie.attributes);
        }
        return ctx.json({ status: true });
      }),
    },
    hooks: {
      before: [
        {
          matcher: (ctx) =>
            ["/sign-in/email", "/request-password-reset", "/reset-password", "/sign-out"].includes(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            switch (ctx.path) {
              case "/sign-in/email": {
                const body = parseBody(SignInBodySchema, ctx.body);
                await assertPasswordAllowed(body.email);
                const wait = await signInWait(body.email, await knownDevice(ctx, body.email));
                if (wait > 0) {
                  throw new APIError("TOO_MANY_REQUESTS", {
                    message: `Too many failed sign-ins for this account. Try again in ${waitText(wait)}, or reset your password.`,
                    code: "ACCOUNT_THROTTLED",
                  });
                }
                return { context: { body } };
              }
              case "/request-password-reset": {
                const body = parseBody(RequestResetBodySchema, ctx.body);
                // The call made after the response (no request): it does the reset itself.
                if (!ctx.request) return { context: { body } };
                await assertPasswordAllowed(body.email, "email");
                if (!(await takeMailQuota("reset", body.email))) tooManyMails();
                options.resetLater(body);
                return ctx.json({
                  status: true,
                  message: "If this email exists in our system, check your email for the reset link",
                });
              }
              case "/reset-password": {
                const body = parseBody(ResetBodySchema, ctx.body);
                // A link sent before the company required its provider no longer sets a password.
                const owner = await resetTokenEmail(body.token);
                if (owner) await assertPasswordAllowed(owner, "password");
                await assertStrong(body.newPassword, [], "password");
                return;
              }
              case "/sign-out":
                parseBody(EmptyBodySchema, ctx.body);
                return;
            }
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === "/sign-in/email",
          handler: createAuthMiddleware(async (ctx) => {
            const email = typeof ctx.body?.email === "string" ? ctx.body.email : "";
            if (!email) return;
            const returned = ctx.context.returned;
            const device = await knownDevice(ctx, email);
            if (!isAPIError(returned)) {
              await clearSignInFailures(email, device);
              await rememberDevice(ctx, email, device);
            } else if ((returned.body as { code?: string } | undefined)?.code === "INVALID_EMAIL_OR_PASSWORD") {
              await recordSignInFailure(email, device);
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
