import { APIError } from "better-auth/api";
import { eq, sql } from "drizzle-orm";
import { isAdminEmail } from "../platform/admins";
import { db } from "../platform/db/client";
import { users } from "../platform/db/schema";
import { type ClaimUser, claimOrCreateProfile, claimUnclaimedProfile } from "../profiles/claim-profile";
import { DEACTIVATED_SIGN_IN, isDeactivatedAccount } from "../profiles/deactivation";
import { startedWithSecondFactor } from "./second-factor";

/**
 * The one way into a session (docs/decisions/029-one-way-into-a-session.md).
 * better-auth makes every session through its adapter, whichever way the
 * person came (a password, the emailed confirmation link, an invitation, and
 * a company's identity provider), and calls these hooks around it: before,
 * an account that may not hold a session is refused; after, the sign-in is
 * recorded and the person's card linked. The role is the account's, read with
 * each request (authz.ts), so a change to it applies at once.
 */

/** What the sign-in form says to an account whose address is not confirmed yet. */
const UNCONFIRMED_SIGN_IN = "Confirm your email address first: open the link we sent you.";

/** What the hooks read of an account: enough to refuse it and to link its card. */
const ACCOUNT = {
  id: users.id,
  email: users.email,
  emailVerified: users.emailVerified,
  name: users.name,
  firstName: users.firstName,
  lastName: users.lastName,
  phone: users.phone,
};

async function accountOf(userId: string) {
  const [user] = await db.select(ACCOUNT).from(users).where(eq(users.id, userId)).limit(1);
  return user;
}

/**
 * Gives a confirmed account its card: the unclaimed card prepared for its
 * address, or, for an address in ADMIN_EMAILS, a new one when it has none.
 * Run when a session starts and on signed-in pages of an account without a
 * card, so a card prepared later is picked up at once.
 */
export async function linkCard(user: ClaimUser): Promise<void> {
  if (isAdminEmail(user.email)) await claimOrCreateProfile(user);
  else await claimUnclaimedProfile(user);
}

export const sessionHooks = {
  create: {
    async before<Session extends { userId: string }>(session: Session, context: { path?: string } | null) {
      const user = await accountOf(session.userId);
      // An unconfirmed account owns nothing and holds no session (docs/decisions/004-verified-claims.md).
      if (!user?.emailVerified) {
        throw new APIError("FORBIDDEN", { message: UNCONFIRMED_SIGN_IN, code: "EMAIL_NOT_VERIFIED" });
      }
      // Only someone who got this far (the right password, a valid link) learns why
      // (docs/decisions/019-deactivation-and-audit-log.md).
      if (await isDeactivatedAccount(user)) {
        throw new APIError("FORBIDDEN", { message: DEACTIVATED_SIGN_IN, code: "CARD_DEACTIVATED" });
      }
      // Whether it rested on more than a password is the endpoint's to say, never the session's copy of another.
      return { data: { ...session, secondFactor: startedWithSecondFactor(context?.path) } };
    },
    async after(session: { userId: string }) {
      // One statement records the sign-in and reads what linking the card needs.
      const [user] = await db
        .update(users)
        .set({ lastSignInAt: new Date(), signInCount: sql`${users.signInCount} + 1` })
        .where(eq(users.id, session.userId))
        .returning(ACCOUNT);
      if (user) await linkCard(user);
    },
  },
};
