import { and, eq, gt } from "drizzle-orm";
import { db } from "../db/client";
import { verifications } from "../db/schema";

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
