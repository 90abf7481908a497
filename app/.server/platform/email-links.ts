import { and, eq, gt } from "drizzle-orm";
import { db, type Queryable } from "./db/client";
import { emailLinks } from "./db/schema";
import { env } from "./env";
import { randomToken, tokenHash } from "./tokens";

const ONE_DAY_MS = 24 * 60 * 60 * 1000;
/** How long an emailed link works. */
const LINK_LIFETIME_MS = ONE_DAY_MS;

export type LinkPurpose = (typeof emailLinks.$inferSelect)["purpose"];
export type EmailLink = typeof emailLinks.$inferSelect;

/**
 * Gives an account a new link for `purpose`, replacing the one it had: only
 * the newest link works (docs/decisions/009-mailbox-owner-decides.md). The token goes in the mail; only its hash is kept.
 * `browserHash` undefined keeps the stored one (a resend), null clears it.
 */
export async function issueLink(
  tx: Queryable,
  options: {
    userId: string;
    purpose: LinkPurpose;
    email: string;
    browserHash?: string | null;
    redirectTo?: string | null;
  },
): Promise<{ token: string }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + LINK_LIFETIME_MS);
  const values = {
    tokenHash: tokenHash(token),
    purpose: options.purpose,
    userId: options.userId,
    email: options.email,
    expiresAt,
    createdAt: new Date(),
    ...(options.browserHash !== undefined ? { browserHash: options.browserHash } : {}),
    ...(options.redirectTo !== undefined ? { redirectTo: options.redirectTo } : {}),
  };
  await tx
    .insert(emailLinks)
    .values(values)
    .onConflictDoUpdate({ target: [emailLinks.userId, emailLinks.purpose], set: values });
  return { token };
}

/** The live link a token belongs to, or null (unknown, replaced, used or expired). */
export async function findLink(
  token: string,
  purpose: LinkPurpose,
  tx: Queryable = db,
  now = new Date(),
): Promise<EmailLink | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [link] = await tx
    .select()
    .from(emailLinks)
    .where(
      and(eq(emailLinks.tokenHash, tokenHash(token)), eq(emailLinks.purpose, purpose), gt(emailLinks.expiresAt, now)),
    )
    .limit(1);
  return link ?? null;
}

/** Removes a used link; false when another request used it first. */
export async function consumeLink(tx: Queryable, link: EmailLink): Promise<boolean> {
  const deleted = await tx
    .delete(emailLinks)
    .where(eq(emailLinks.tokenHash, link.tokenHash))
    .returning({ tokenHash: emailLinks.tokenHash });
  return deleted.length === 1;
}

/** The address a sign-up link opens (better-auth's handler, where the session is made). */
export function confirmationUrl(token: string): string {
  return `${env.PUBLIC_URL}/api/auth/confirm-email?token=${encodeURIComponent(token)}`;
}
