import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint, getSessionFromCtx, isAPIError } from "better-auth/api";
import { z } from "zod";
import { can } from "~/lib/permissions";
import { sessionOwesSecondFactor } from "../accounts/second-factor";
import { roleOf } from "../platform/admins";
import {
  clearSignInFailures,
  recordSignInFailure as recordPasswordFailure,
  signInWait,
  waitText,
} from "../platform/throttle";
import { EmailSchema, safeRedirect } from "../platform/validation";
import { heldAdminLink, holdAdminLink, releaseAdminLink } from "../sso/admin-link";
import { recordSignInFailure } from "../sso/failures";
import { accountFromProvider } from "../sso/identities";
import { LOGIN_COOKIE, LOGIN_COOKIE_MAX_AGE_S } from "../sso/login-cookie";
import { SSO_MESSAGES, type SsoMessageCode, ssoMessage } from "../sso/messages";
import { reasonOf, takeLogin } from "../sso/oidc";
import { protocolOf } from "../sso/protocols";
import { getProvider, hasSecret, type Provider, providerForEmail } from "../sso/providers";
import { keepTestResult } from "../sso/test-sign-in";
import { startSession } from "./auth-plugin";

const ConfirmBodySchema = z.strictObject({
  state: z.string().min(1).max(200),
  password: z.string().min(1).max(200),
});

const WRONG_PASSWORD = "That is not this account's password. Nothing was linked.";
const NO_PASSWORD_TO_CONFIRM =
  "This administrator account has no Namecard password to confirm with, so it was not linked. Sign in the way you usually do.";

const StartBodySchema = z.strictObject({
  providerId: z.uuid().optional(),
  email: EmailSchema.optional(),
  callbackURL: z.string().max(2000).optional(),
  /** An administrator's test sign-in: the provider's response is shown to them, and nothing is made or signed in. */
  test: z.literal(true).optional(),
});

/** Where a test sign-in comes back to. */
const TEST_PAGE = "/admin/settings/single-sign-on";

/**
 * Single sign-on's two endpoints (docs/decisions/030-single-sign-on.md):
 * one sends the browser to the provider, the other takes its response and ends,
 * like every other sign-in, in the one place that starts sessions.
 */
export function namecardSso() {
  return {
    id: "namecard-sso",
    endpoints: {
      /** Starts a sign-in with a provider named by id, or by the domain of a typed address. */
      signInSso: createAuthEndpoint("/sign-in/sso", { method: "POST" }, async (ctx) => {
        const parsed = StartBodySchema.safeParse(ctx.body ?? {});
        if (!parsed.success) {
          throw new APIError("BAD_REQUEST", { message: "The request is not valid", code: "INVALID_INPUT" });
        }
        const { providerId, email, callbackURL, test } = parsed.data;
        let testBy: string | undefined;
        if (test) {
          const session = await getSessionFromCtx(ctx);
          if (
            !session ||
            !can(roleOf(session.user), "update:settings:any") ||
            (await sessionOwesSecondFactor(session))
          ) {
            throw new APIError("FORBIDDEN", {
              message: "Only an administrator can test a provider",
              code: "FORBIDDEN",
            });
          }
          testBy = session.user.id;
        }
        const provider = providerId ? await getProvider(providerId) : email ? await providerForEmail(email) : null;
        if (!provider) throw new APIError("NOT_FOUND", { message: "No such provider", code: "NO_PROVIDER" });
        if (!hasSecret(provider)) {
          console.warn(`[sso] ${provider.name}: its secret cannot be opened with this server's secret`);
          throw new APIError("SERVICE_UNAVAILABLE", { message: "unavailable", code: "SSO_UNAVAILABLE" });
        }
        let started: { url: string; browserKey: string };
        try {
          const redirectTo = testBy ? TEST_PAGE : safeRedirect(callbackURL);
          started = await protocolOf(provider).start(provider, { redirectTo, loginHint: email, testBy });
        } catch (error) {
          console.warn(`[sso] ${provider.name}: could not start a sign-in: ${reasonOf(error)}`);
          await recordSignInFailure(provider.id, "unavailable", reasonOf(error)).catch(() => {});
          throw new APIError("SERVICE_UNAVAILABLE", { message: "unavailable", code: "SSO_UNAVAILABLE" });
        }
        const cookie = ctx.context.createAuthCookie(LOGIN_COOKIE, { maxAge: LOGIN_COOKIE_MAX_AGE_S });
        ctx.setCookie(cookie.name, started.browserKey, cookie.attributes);
        return ctx.json({ url: started.url });
      }),

      /** The provider's response. Whatever fails, the browser lands on /auth with a message, never a token in sight. */
      ssoCallback: createAuthEndpoint("/sso/callback", { method: "GET" }, async (ctx) => {
        let testing = false;
        const refuse = async (code: SsoMessageCode, reason: string, provider?: Provider): Promise<never> => {
          console.warn(`[sso] ${provider?.name ?? "a provider"}: sign-in refused (${code}): ${reason}`);
          // Shown to the provider's administrators; a failure to keep it changes nothing for the person.
          if (provider) await recordSignInFailure(provider.id, code, reason).catch(() => {});
          // A test sign-in goes back to the screen whose failures list now says why.
          if (testing) throw ctx.redirect(`${TEST_PAGE}?${new URLSearchParams({ tested: "failed" })}#failures`);
          throw ctx.redirect(`/auth?${new URLSearchParams({ sso: code })}`);
        };
        const cookie = ctx.context.createAuthCookie(LOGIN_COOKIE, { maxAge: LOGIN_COOKIE_MAX_AGE_S });
        const browserKey = ctx.getCookie(cookie.name) ?? null;
        ctx.setCookie(cookie.name, "", { ...cookie.attributes, maxAge: 0 });
        const query = new URLSearchParams();
        for (const [name, value] of Object.entries(ctx.query ?? {})) {
          if (typeof value === "string") query.set(name, value);
        }
        const taken = await takeLogin(query, browserKey);
        if (taken.outcome !== "ok") return refuse(taken.outcome, taken.reason);
        const { login } = taken;
        testing = login.testBy !== null;
        const provider = await getProvider(login.providerId);
        if (!provider) return refuse("expired", "the provider was removed");
        if (!hasSecret(provider)) return refuse("unavailable", "its secret cannot be opened", provider);
        const finished = await protocolOf(provider).finish(provider, login, query);
        if (finished.outcome !== "ok") return refuse(finished.outcome, finished.reason, provider);
        const { claims } = finished;
        if (login.testBy) {
          // Shown to the administrator who asked, with what a real sign-in would do; nothing is made or signed in.
          const token = await keepTestResult(provider.id, claims, login.testBy);
          throw ctx.redirect(`${TEST_PAGE}?${new URLSearchParams({ tested: token })}#test-result`);
        }
        const account = await accountFromProvider(provider, claims);
        if (account.outcome === "confirm-admin") {
          // An administrator's account: it waits for their password (sso/admin-link.ts), in this browser.
          const held = await holdAdminLink({ providerId: provider.id, claims, redirectTo: login.redirectTo });
          ctx.setCookie(cookie.name, held.browserKey, cookie.attributes);
          throw ctx.redirect(`/auth/confirm-admin?${new URLSearchParams({ state: held.token })}`);
        }
        if (account.outcome !== "ok") {
          return refuse(account.outcome, `subject ${JSON.stringify(claims.subject.slice(0, 255))}`, provider);
        }
        try {
          await startSession(ctx, account.user);
        } catch (error) {
          if (isAPIError(error) && error.body?.code === "CARD_DEACTIVATED") {
            return refuse("deactivated", `account ${account.user.id}`, provider);
          }
          throw error;
        }
        throw ctx.redirect(login.redirectTo);
      }),

      /**
       * An administrator confirms, with their password, that a provider may
       * sign in to their account from now on. A wrong password counts as a
       * failed sign-in of the account, slowed as those are.
       */
      confirmAdminLink: createAuthEndpoint("/sso/confirm-admin", { method: "POST" }, async (ctx) => {
        const parsed = ConfirmBodySchema.safeParse(ctx.body ?? {});
        if (!parsed.success) {
          throw new APIError("BAD_REQUEST", { message: "The request is not valid", code: "INVALID_INPUT" });
        }
        const { state, password } = parsed.data;
        const cookie = ctx.context.createAuthCookie(LOGIN_COOKIE, { maxAge: LOGIN_COOKIE_MAX_AGE_S });
        const held = await heldAdminLink(state, ctx.getCookie(cookie.name) ?? null);
        if (!held) throw new APIError("BAD_REQUEST", { message: SSO_MESSAGES.expired, code: "EXPIRED" });
        const email = (held.claims.text.email ?? "").trim().toLowerCase();
        const wait = await signInWait(email);
        if (wait > 0) {
          throw new APIError("TOO_MANY_REQUESTS", {
            message: `Too many wrong passwords for this account. Try again in ${waitText(wait)}.`,
            code: "THROTTLED",
          });
        }
        const found = await ctx.context.internalAdapter.findUserByEmail(email, { includeAccounts: true });
        const hash = found?.accounts.find((account) => account.providerId === "credential")?.password;
        if (!found || !hash) {
          throw new APIError("BAD_REQUEST", { message: NO_PASSWORD_TO_CONFIRM, code: "NO_PASSWORD" });
        }
        if (!(await ctx.context.password.verify({ hash, password }))) {
          await recordPasswordFailure(email);
          throw new APIError("BAD_REQUEST", { message: WRONG_PASSWORD, code: "WRONG_PASSWORD" });
        }
        await clearSignInFailures(email);
        await releaseAdminLink(state);
        ctx.setCookie(cookie.name, "", { ...cookie.attributes, maxAge: 0 });
        const account = await accountFromProvider(held.provider, held.claims, { confirmedAdmin: found.user.id });
        if (account.outcome !== "ok") {
          await recordSignInFailure(held.provider.id, account.outcome, `account ${found.user.id}`).catch(() => {});
          throw new APIError("BAD_REQUEST", {
            message: ssoMessage(account.outcome) ?? SSO_MESSAGES.failed,
            code: "REFUSED",
          });
        }
        await startSession(ctx, account.user);
        return ctx.json({ url: held.redirectTo });
      }),
    },
  } satisfies BetterAuthPlugin;
}
