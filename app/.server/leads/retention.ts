import { eq, lt, lte, or, sql } from "drizzle-orm";
import { LEAD_RETENTION_DEFAULT_MONTHS } from "~/lib/leads";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { leads, siteSettings } from "../platform/db/schema";

/** How long leads are kept, in months, as the company chose it. */
export async function leadRetentionMonths(): Promise<number> {
  const [row] = await db
    .select({ months: siteSettings.leadRetentionMonths })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
    .limit(1);
  return row?.months ?? LEAD_RETENTION_DEFAULT_MONTHS;
}

/** Whether administrators may read every card's leads (they always see how many there are). */
export async function adminsSeeLeads(): Promise<boolean> {
  const [row] = await db
    .select({ allowed: siteSettings.adminsSeeLeads })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
    .limit(1);
  return row?.allowed === true;
}

/** `months` calendar months after (or, negative, before) `date`. */
export function monthsAfter(date: Date, months: number): Date {
  const moved = new Date(date);
  moved.setUTCMonth(moved.getUTCMonth() + months);
  return moved;
}

/**
 * Deletes leads whose time is up, with their mails still queued; run by the
 * mail worker's rounds. A lead goes when the period its visitor agreed to
 * ends, or sooner when the company has since shortened the period; never
 * later, whatever the setting becomes. A deactivated card's leads go the same way.
 */
export async function deleteExpiredLeads(now = new Date()): Promise<number> {
  const deleted = await db
    .delete(leads)
    .where(or(lte(leads.expiresAt, now), lt(leads.createdAt, monthsAfter(now, -(await leadRetentionMonths())))))
    .returning({ id: leads.id });
  return deleted.length;
}

/**
 * Erases every lead with this address, on every card, with the mails that
 * would carry it. The record says that an erasure was done, and how many
 * leads it took, never the address or anything erased.
 */
export async function eraseLeadsOf(actor: Actor, email: string): Promise<number> {
  return db.transaction(async (tx) => {
    const erased = await tx
      .delete(leads)
      .where(sql`lower(${leads.email}) = ${email.toLowerCase()}`)
      .returning({ id: leads.id });
    await recordAdminAction(tx, {
      actor,
      action: "erase",
      target: {
        kind: "leads",
        id: null,
        label: `One visitor's details (${erased.length === 1 ? "1 lead" : `${erased.length} leads`})`,
      },
    });
    return erased.length;
  });
}
