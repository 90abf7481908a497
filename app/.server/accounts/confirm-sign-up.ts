import { timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { fullName } from "~/lib/names";
import { db } from "../platform/db/client";
import { accounts, users } from "../platform/db/schema";
import { consumeLink, findLink } from "../platform/email-links";
import { clearSignInFailures } from "../platform/throttle";
import { tokenHash } from "../platform/tokens";
import { safeRedirect } from "../platform/validation";
import { claimOrCreateProfile } from "../profiles/claim-profile";
import { mayJoin } from "./join-rule";

export type ConfirmedUser = typeof users.$inferSelect;

export type ConfirmResult =
  | { outcome: "confirmed"; user: ConfirmedUser; redirectTo: string }
  /** A live link opened where the sign-up was not made: the opener sets the details and password. */
  | { outcome: "needs-details" }
  /** The company's sign-up rule changed since the sign-up and leaves this address out: nothing changes. */
  | { outcome: "not-allowed"; message: string }
  | { outcome: "invalid" };

/** What the confirmation page shows before asking for a password: the pending details, or null. */
export async function pendingSignUp(token: string) {
  const link = await findLink(token, "sign-up");
  if (!link?.userId) return null;
  const [user] = await db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName, phone: users.phone })
    .from(users)
    .where(and(eq(users.id, link.userId), eq(users.emailVerified, false)));
  return user ?? null;
}

function sameHash(a: string | null, b: string | null) {
  if (!a || !b || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * Opens a sign-up link (docs/decisions/009-mailbox-owner-decides.md). The link proves the mailbox; the password
 * must come from its owner too. So the pending password becomes valid only
 * in the browser that made the latest sign-up (its cookie key matches);
 * anywhere else the opener gives the details and a password, which replace
 * the pending ones. Either way the link is used up, the address confirmed,
 * and the card claimed or created.
 */
export async function confirmSignUp(options: {
  token: string;
  browserKey: string | null;
  details?: { firstName: string; lastName: string; phone: string | null; passwordHash: string };
}): Promise<ConfirmResult> {
  const result = await db.transaction(async (tx): Promise<ConfirmResult> => {
    const link = await findLink(options.token, "sign-up", tx);
    if (!link?.userId) return { outcome: "invalid" };
    const userId = link.userId;
    const { details } = options;
    const sameBrowser = !!options.browserKey && sameHash(tokenHash(options.browserKey), link.browserHash);
    if (!details && !sameBrowser) return { outcome: "needs-details" };
    // Checked again here: the rule may have become stricter since the sign-up (docs/decisions/024-who-can-join.md).
    const decision = await mayJoin(link.email, tx);
    if (!decision.allowed) return { outcome: "not-allowed", message: decision.message };
    if (!(await consumeLink(tx, link))) return { outcome: "invalid" };
    if (details) {
      await tx
        .update(accounts)
        .set({ password: details.passwordHash })
        .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")));
    }
    const [user] = await tx
      .update(users)
      .set({
        emailVerified: true,
        ...(details
          ? {
              firstName: details.firstName,
              lastName: details.lastName,
              name: fullName(details),
              phone: details.phone,
            }
          : {}),
      })
      .where(and(eq(users.id, userId), eq(users.emailVerified, false)))
      .returning();
    if (!user) return { outcome: "invalid" };
    return { outcome: "confirmed", user, redirectTo: safeRedirect(link.redirectTo) };
  });
  if (result.outcome === "confirmed") {
    await clearSignInFailures(result.user.email);
    await claimOrCreateProfile({ ...result.user, emailVerified: true });
  }
  return result;
}
