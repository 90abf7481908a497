import { eq, lt, sql } from "drizzle-orm";
import { LEAD_RETENTION_DEFAULT_MONTHS } from "~/lib/leads";
import type { Actor } from "../actor";
import { recordAdminAction } from "../audit/record";
import { db } from "../db/client";
import { leads, siteSettings } from "../db/schema";

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

/** The moment before which leads are past the retention period. */
function cutOff(now: Date, months: number): Date {
  const cut = new Date(now);
  cut.setUTCMonth(cut.getUTCMonth() - months);
  return cut;
}

/**
 * Deletes leads older than the retention period, with their mails still
 * queued; run by the mail worker's rounds. A deactivated card's leads are kept
 * as long as any others, and go the same way.
 */
export async function deleteExpiredLeads(now = new Date()): Promise<number> {
  const deleted = await db
    .delete(leads)
    .where(lt(leads.createdAt, cutOff(now, await leadRetentionMonths())))
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
