import { and, count, eq, lte } from "drizzle-orm";
import { administrationScope, can, type Role } from "~/lib/permissions";
import type { SecondFactorRule } from "~/lib/settings";
import { administeredBrands } from "../access/brand-grants";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { isAdminEmail, roleOf } from "../platform/admins";
import { db } from "../platform/db/client";
import {
  accounts,
  identityProviders,
  passkeys,
  sessions,
  siteSettings,
  twoFactors,
  users,
} from "../platform/db/schema";
import { ForbiddenError, ValidationError } from "../platform/errors";
import { cachedValue } from "../platform/read-cache";
import { publish } from "../platform/realtime";
import { cardLabel } from "../profiles/card-writer";
import { lockedCardAndAccount } from "./card-account";
import { sendSecondFactorMail } from "./mails";

/**
 * Who must complete a password sign-in with a second factor
 * (docs/decisions/043-a-second-factor.md). A second factor is a code from an
 * authenticator app (or one of its recovery codes) after the password; a
 * passkey is a sign-in of its own that needs none, and so is a company's
 * identity provider, whose own second factor is its business.
 */

/**
 * The better-auth endpoints whose session rests on more than a password:
 * its code or a recovery code after the password, a passkey, or the
 * identity provider. Every other way in (a password alone, a confirmation
 * link, an invitation) starts a session that is a password's.
 */
const SECOND_FACTOR_PATHS = new Set([
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/passkey/verify-authentication",
  "/sso/callback",
  "/sso/confirm-admin",
]);

/** Whether a session started by this endpoint rested on more than a password. */
export function startedWithSecondFactor(path: string | undefined): boolean {
  return path !== undefined && SECOND_FACTOR_PATHS.has(path);
}

/** The administrators' rule, cached with the settings it is one of. */
function secondFactorRule(): Promise<SecondFactorRule | null> {
  return cachedValue("second factor rule", async () => {
    const [row] = await db
      .select({ rule: siteSettings.secondFactorRule })
      .from(siteSettings)
      .where(eq(siteSettings.id, 1))
      .limit(1);
    return row?.rule ?? null;
  });
}

/**
 * Whether any provider is required for its domains (then the ADMIN_EMAILS accounts are the way in,
 * and must be kept), and was already when a session started at `since`: a session that began
 * before is not interrupted (the administrator who just required it is usually in one).
 */
async function anyProviderRequired(since: Date | null): Promise<boolean> {
  const [row] = await db
    .select({ id: identityProviders.id })
    .from(identityProviders)
    .where(
      since
        ? and(eq(identityProviders.requireSso, true), lte(identityProviders.requiredSince, since))
        : eq(identityProviders.requireSso, true),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Whether this account must finish its password sign-ins with a second factor:
 * everyone, or administrators (of the whole site or of a brand), as the administrators chose; and the break-glass
 * addresses of ADMIN_EMAILS once any provider is required (their password is the
 * company's way in when the provider fails, and then the only one left to guess).
 */
export async function mustUseSecondFactor(
  account: { email: string; role: Role; brandIds?: readonly number[] },
  sessionStartedAt: Date | null = null,
): Promise<boolean> {
  const rule = await secondFactorRule();
  if (rule === "everyone") return true;
  if (rule === "admins" && administrationScope(account)) return true;
  return isAdminEmail(account.email) && (await anyProviderRequired(sessionStartedAt));
}

/** Whether the account has a password here: an account that signs in only through a provider has none to protect. */
export async function hasPassword(userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
    .limit(1);
  return row !== undefined;
}

/**
 * Whether a session may open only the page that sets up the second factor: its
 * account must use one, has a password and no app set up, and signed in with a
 * password alone. (Setting the app up ends the account's other password-only
 * sessions, so an account with an app holds none.)
 */
export async function secondFactorDue(
  account: { id: string; email: string; role: Role; brandIds?: readonly number[]; twoFactorEnabled: boolean },
  session: { secondFactor: boolean; createdAt: Date },
): Promise<boolean> {
  if (session.secondFactor || account.twoFactorEnabled) return false;
  return (await mustUseSecondFactor(account, session.createdAt)) && (await hasPassword(account.id));
}

/** The same question for a session as better-auth reads it (the event stream, the provider test). */
export async function sessionOwesSecondFactor(found: {
  user: { id: string; email: string; role?: string | null; twoFactorEnabled?: boolean | null };
  session: Record<string, unknown>;
}): Promise<boolean> {
  const started = found.session.createdAt;
  return secondFactorDue(
    {
      ...found.user,
      role: roleOf(found.user),
      brandIds: await administeredBrands(found.user.id),
      twoFactorEnabled: found.user.twoFactorEnabled === true,
    },
    { secondFactor: found.session.secondFactor === true, createdAt: started instanceof Date ? started : new Date() },
  );
}

/**
 * Removes the authenticator app and the passkeys of a card's owner, for someone
 * who lost their phone and their recovery codes; an administrator does it, after
 * making sure it is them. Their sessions end, and their next password sign-in is
 * a password's alone (or, where the company asks for a second step, sets one up).
 */
export async function removeSecondFactor({ actor, profileId }: { actor: Actor; profileId: string }) {
  if (!can(actor.role, "update:role:any")) throw new ForbiddenError();
  const result = await db.transaction(async (tx) => {
    const card = await lockedCardAndAccount(tx, profileId);
    if (!card.userId)
      throw new ValidationError({ id: ["This card has no account yet: there is no second step to remove."] });
    const [keys] = await tx.select({ count: count() }).from(passkeys).where(eq(passkeys.userId, card.userId));
    const passkeyCount = keys?.count ?? 0;
    if (!card.twoFactorEnabled && passkeyCount === 0) return { card, removed: false };
    await tx.delete(twoFactors).where(eq(twoFactors.userId, card.userId));
    await tx.delete(passkeys).where(eq(passkeys.userId, card.userId));
    await tx.update(users).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(users.id, card.userId));
    await tx.delete(sessions).where(eq(sessions.userId, card.userId));
    const had = [
      card.twoFactorEnabled ? "authenticator app" : "",
      passkeyCount ? `${passkeyCount} passkey${passkeyCount === 1 ? "" : "s"}` : "",
    ];
    await recordAdminAction(tx, {
      actor,
      action: "second-factor",
      target: { kind: "profile", id: card.id, label: cardLabel(card) },
      changes: { "second step": [had.filter(Boolean).join(", "), null] },
    });
    return { card, removed: true };
  });
  if (result.removed && result.card.userId && result.card.email) {
    await publish({ kind: "user-sessions-ended", id: result.card.userId });
    await sendSecondFactorMail({ email: result.card.email, firstName: result.card.firstName }, "removed-by-admin");
  }
  return { firstName: result.card.firstName, lastName: result.card.lastName, removed: result.removed };
}
