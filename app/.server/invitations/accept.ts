import { generateId } from "better-auth";
import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { mediaUrl } from "~/lib/media";
import { fullName } from "~/lib/names";
import { db, type Queryable } from "../platform/db/client";
import { accounts, brands, emailLinks, mailJobs, type Profile, profiles, users } from "../platform/db/schema";
import { consumeLink } from "../platform/email-links";
import { storedImageKey } from "../platform/site-settings";
import { clearSignInFailures } from "../platform/throttle";
import { type CardWriter, writeCards } from "../profiles/card-writer";
import { findInvitation } from "./invitations";
import { INVITATION_KINDS } from "./mail-queue";

type InvitedUser = typeof users.$inferSelect;

/** The card an invitation gives, as its page previews it: the person, their title, and the brand it wears. */
export type ClaimPreview = {
  firstName: string;
  lastName: string;
  title: string | null;
  photoUrl: string | null;
  brand: { name: string; primaryColor: string; secondaryColor: string; logoUrl: string | null } | null;
};

/** What the invitation page shows before anything is used up. */
export type InvitationView =
  | { state: "invalid" }
  /** A new account, or one whose sign-up was never confirmed: the opener chooses the password. */
  | { state: "choose-password"; email: string; firstName: string; lastName: string; card: ClaimPreview }
  /** The address has an account already: the card is added to it, the password stays. */
  | { state: "existing-account"; email: string; card: ClaimPreview };

async function previewOf(card: Profile): Promise<ClaimPreview> {
  const [brand] = card.companyBrandId
    ? await db
        .select({
          name: brands.name,
          primaryColor: brands.primaryColor,
          secondaryColor: brands.secondaryColor,
          logo: brands.logo,
        })
        .from(brands)
        .where(and(eq(brands.id, card.companyBrandId), eq(brands.active, true)))
    : [];
  return {
    firstName: card.firstName,
    lastName: card.lastName,
    title: card.title,
    photoUrl: mediaUrl(storedImageKey(card.profilePhoto)),
    brand: brand
      ? {
          name: brand.name,
          primaryColor: brand.primaryColor,
          secondaryColor: brand.secondaryColor,
          logoUrl: mediaUrl(storedImageKey(brand.logo)),
        }
      : null,
  };
}

async function accountOf(tx: Queryable, email: string) {
  const [user] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
  return user ?? null;
}

/** The invitation page's view of a token, read only (a mail scanner's GET uses nothing up). */
export async function viewInvitation(token: string, now = new Date()): Promise<InvitationView> {
  const found = await findInvitation(token, db, now);
  if (!found) return { state: "invalid" };
  const [user, card] = await Promise.all([accountOf(db, found.card.email), previewOf(found.card)]);
  if (user?.emailVerified) return { state: "existing-account", email: found.card.email, card };
  return {
    state: "choose-password",
    email: found.card.email,
    firstName: found.card.firstName,
    lastName: found.card.lastName,
    card,
  };
}

export type AcceptResult =
  /** Signed in on the claimed card. */
  | { outcome: "claimed"; user: InvitedUser; profile: Profile }
  /** Added to the existing account; its owner signs in with their own password. */
  | { outcome: "linked"; profile: Profile }
  /** The existing account has a card of its own already: nothing changed. */
  | { outcome: "has-card" }
  | { outcome: "needs-password" }
  | { outcome: "invalid" };

/**
 * Uses an invitation's link (docs/decisions/021-invitations-and-the-mail-queue.md).
 * The link proves the mailbox, so its opener decides the password
 * (docs/decisions/009-mailbox-owner-decides.md):
 * - no account at the address: one is made, confirmed, with this password;
 * - an account never confirmed (a pending sign-up, perhaps a stranger's): its
 *   pending password and details are replaced, and it is confirmed;
 * - a confirmed account: the card is added to it and its password is not touched.
 * The link works once; the card's pending invitation mails are dropped.
 */
export async function acceptInvitation(options: {
  token: string;
  passwordHash: string | null;
  now?: Date;
}): Promise<AcceptResult> {
  const now = options.now ?? new Date();
  const result = await writeCards({ kind: "owner" }, async (cards): Promise<AcceptResult> => {
    const { tx } = cards;
    const found = await findInvitation(options.token, tx, now);
    if (!found) return { outcome: "invalid" };
    const { link, card } = found;
    const existing = await accountOf(tx, card.email);
    if (!existing?.emailVerified && !options.passwordHash) return { outcome: "needs-password" };
    if (!(await consumeLink(tx, link))) return { outcome: "invalid" };
    await tx
      .delete(mailJobs)
      .where(
        and(
          eq(mailJobs.profileId, card.id),
          inArray(mailJobs.status, ["pending", "failed"]),
          inArray(mailJobs.kind, INVITATION_KINDS),
        ),
      );

    if (existing?.emailVerified) {
      const [owned] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, existing.id));
      if (owned) return { outcome: "has-card" };
      const profile = await claim(cards, card.id, existing.id);
      return profile ? { outcome: "linked", profile } : { outcome: "invalid" };
    }

    const passwordHash = options.passwordHash as string;
    const details = {
      name: fullName(card),
      firstName: card.firstName,
      lastName: card.lastName,
      phone: card.phone,
      emailVerified: true,
    };
    let user: InvitedUser | undefined;
    if (existing) {
      [user] = await tx.update(users).set(details).where(eq(users.id, existing.id)).returning();
      const updated = await tx
        .update(accounts)
        .set({ password: passwordHash })
        .where(and(eq(accounts.userId, existing.id), eq(accounts.providerId, "credential")))
        .returning({ id: accounts.id });
      if (updated.length === 0) await insertCredential(tx, existing.id, passwordHash);
      // The pending sign-up's own link is of no use any more.
      await tx.delete(emailLinks).where(and(eq(emailLinks.userId, existing.id), eq(emailLinks.purpose, "sign-up")));
    } else {
      const id = generateId();
      [user] = await tx
        .insert(users)
        .values({ id, email: card.email.toLowerCase(), ...details })
        .returning();
      await insertCredential(tx, id, passwordHash);
    }
    if (!user) throw new Error("Writing the invited account returned no row");
    const profile = await claim(cards, card.id, user.id);
    if (!profile) throw new Error("The invited card could not be claimed");
    return { outcome: "claimed", user, profile };
  });
  if (result.outcome === "claimed") await clearSignInFailures(result.user.email);
  return result;
}

/** The invited card, if it is still unclaimed and active. */
function claim(cards: CardWriter, profileId: string, userId: string) {
  return cards.claim(and(eq(profiles.id, profileId), isNull(profiles.deactivatedAt)) as SQL, userId);
}

async function insertCredential(tx: Queryable, userId: string, passwordHash: string) {
  await tx.insert(accounts).values({
    id: generateId(),
    userId,
    accountId: userId,
    providerId: "credential",
    password: passwordHash,
  });
}
