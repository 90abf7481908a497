import { generateId } from "better-auth";
import { and, eq, sql } from "drizzle-orm";
import { fullName } from "~/lib/names";
import { db, type Queryable } from "../platform/db/client";
import { isUniqueViolation } from "../platform/db/errors";
import { accounts, users } from "../platform/db/schema";
import { confirmationUrl, issueLink } from "../platform/email-links";
import { takeMailQuota } from "../platform/throttle";
import { randomToken, tokenHash } from "../platform/tokens";
import { mayJoin } from "./join-rule";
import { sendAlreadyRegisteredMail, sendConfirmationMail } from "./mails";

export type SignUpFields = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  redirectTo: string;
};

export type SignUpResult =
  /** Mail is on its way; `browserKey` goes in the signing-up browser's cookie. */
  | { outcome: "sent"; browserKey: string }
  /** The address had its share of mails this hour; nothing changed. */
  | { outcome: "too-many" }
  /** The company does not let this address join (docs/decisions/024-who-can-join.md); nothing changed. */
  | { outcome: "not-allowed"; message: string };

/**
 * A sign-up with email and password (docs/decisions/009-mailbox-owner-decides.md). Whoever controls the mailbox
 * decides the password:
 * - a new address gets an unverified account and a confirmation link;
 * - an address whose account is not confirmed yet has its pending name,
 *   phone and password replaced by this sign-up, and a fresh link replaces
 *   every older one;
 * - an address with a confirmed account is told so by mail, and nothing changes.
 * The answer is the same in all three cases, so it reveals no account. An
 * address the company does not let join gets no account and no mail.
 */
export async function signUp(options: { fields: SignUpFields; passwordHash: string }): Promise<SignUpResult> {
  const { fields } = options;
  const decision = await mayJoin(fields.email);
  if (!decision.allowed) return { outcome: "not-allowed", message: decision.message };
  if (!(await takeMailQuota("sign-up", fields.email))) return { outcome: "too-many" };
  const browserKey = randomToken();
  let result: { kind: "pending"; token: string } | { kind: "registered"; firstName: string | null };
  try {
    result = await db.transaction((tx) => signUpIn(tx, options, tokenHash(browserKey)));
  } catch (error) {
    // Two sign-ups for a new address raced: the second one replaces the first.
    if (!isUniqueViolation(error)) throw error;
    result = await db.transaction((tx) => signUpIn(tx, options, tokenHash(browserKey)));
  }
  if (result.kind === "pending") await sendConfirmationMail(fields.email, confirmationUrl(result.token));
  else await sendAlreadyRegisteredMail({ email: fields.email, emailVerified: true, firstName: result.firstName });
  return { outcome: "sent", browserKey };
}

async function signUpIn(tx: Queryable, { fields, passwordHash }: Parameters<typeof signUp>[0], browserHash: string) {
  const pending = {
    name: fullName(fields),
    firstName: fields.firstName,
    lastName: fields.lastName,
    phone: fields.phone,
  };
  const [existing] = await tx
    .select({ id: users.id, emailVerified: users.emailVerified, firstName: users.firstName })
    .from(users)
    .where(sql`lower(${users.email}) = ${fields.email}`)
    .for("update")
    .limit(1);
  if (existing?.emailVerified) return { kind: "registered" as const, firstName: existing.firstName };

  let userId: string;
  if (existing) {
    userId = existing.id;
    await tx.update(users).set(pending).where(eq(users.id, userId));
    const updated = await tx
      .update(accounts)
      .set({ password: passwordHash })
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
      .returning({ id: accounts.id });
    if (updated.length === 0) await insertCredential(tx, userId, passwordHash);
  } else {
    userId = generateId();
    await tx.insert(users).values({ id: userId, email: fields.email, emailVerified: false, ...pending });
    await insertCredential(tx, userId, passwordHash);
  }
  const { token } = await issueLink(tx, {
    userId,
    purpose: "sign-up",
    email: fields.email,
    browserHash,
    redirectTo: fields.redirectTo,
  });
  return { kind: "pending" as const, token };
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

/**
 * Sends the newest link again to an address whose sign-up is not confirmed
 * (older links stop working), or the already-registered notice to one that
 * is. `rebindBrowser` (after the pending password was proven at sign-in)
 * lets this browser confirm without typing the password again.
 */
export async function resendConfirmation(options: {
  email: string;
  rebindBrowser?: boolean;
}): Promise<{ outcome: "sent"; browserKey: string | null } | { outcome: "too-many" }> {
  if (!(await takeMailQuota("sign-up", options.email))) return { outcome: "too-many" };
  const browserKey = options.rebindBrowser ? randomToken() : null;
  const result = await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, emailVerified: users.emailVerified, firstName: users.firstName })
      .from(users)
      .where(sql`lower(${users.email}) = ${options.email}`)
      .for("update")
      .limit(1);
    if (!user) return { kind: "none" as const };
    if (user.emailVerified) return { kind: "registered" as const, firstName: user.firstName };
    const { token } = await issueLink(tx, {
      userId: user.id,
      purpose: "sign-up",
      email: options.email,
      ...(browserKey ? { browserHash: tokenHash(browserKey) } : {}),
    });
    return { kind: "pending" as const, token };
  });
  if (result.kind === "pending") await sendConfirmationMail(options.email, confirmationUrl(result.token));
  if (result.kind === "registered") {
    await sendAlreadyRegisteredMail({ email: options.email, emailVerified: true, firstName: result.firstName });
  }
  return { outcome: "sent", browserKey };
}
