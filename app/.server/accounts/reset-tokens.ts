import { and, eq, gt } from "drizzle-orm";
import { db } from "../platform/db/client";
import { users, verifications } from "../platform/db/schema";

/** Whether a password-reset token is one better-auth issued and has not used or let expire. */
export async function isLiveResetToken(token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9]{10,64}$/.test(token)) return false;
  const [row] = await db
    .select({ id: verifications.id })
    .from(verifications)
    .where(and(eq(verifications.identifier, `reset-password:${token}`), gt(verifications.expiresAt, new Date())))
    .limit(1);
  return !!row;
}

/** The address of the account a live reset token is for, or null. */
export async function resetTokenEmail(token: string): Promise<string | null> {
  if (!/^[A-Za-z0-9]{10,64}$/.test(token)) return null;
  const [row] = await db
    .select({ email: users.email })
    .from(verifications)
    .innerJoin(users, eq(users.id, verifications.value))
    .where(and(eq(verifications.identifier, `reset-password:${token}`), gt(verifications.expiresAt, new Date())))
    .limit(1);
  return row?.email ?? null;
}
