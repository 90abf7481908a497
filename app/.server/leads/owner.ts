import { and, count, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { LEAD_NOTE_MAX, LEAD_SOURCE_LABELS } from "~/lib/leads";
import { toCsv } from "../platform/csv";
import { db } from "../platform/db/client";
import { type Lead, leads } from "../platform/db/schema";
import { NotFoundError } from "../platform/errors";
import { OptionalTextSchema, parseForm } from "../platform/validation";
import { buildVCard } from "../profiles/vcard";

/**
 * A card's leads as its owner reads them (docs/decisions/034-leads.md). Every
 * function is scoped to one card: a lead of another card is simply not found.
 * Who may call them for which card is the route's to decide (routes/app/leads.tsx).
 */

export const LEADS_PER_PAGE = 25;

function matching(profileId: string, q: string): SQL {
  const own = eq(leads.profileId, profileId);
  if (!q) return own;
  const pattern = `%${q.replace(/[\\%_]/g, "\\$&")}%`;
  const columns = [leads.name, leads.email, leads.phone, leads.company, leads.title, leads.message, leads.ownerNote];
  return and(own, or(...columns.map((column) => sql`${column} ilike ${pattern}`)))!;
}

export async function listLeads(profileId: string, options: { q: string; page: number }) {
  const where = matching(profileId, options.q);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(leads)
      .where(where)
      .orderBy(desc(leads.createdAt), desc(leads.id))
      .limit(LEADS_PER_PAGE)
      .offset((options.page - 1) * LEADS_PER_PAGE),
    db.select({ n: count() }).from(leads).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Every lead of a card, newest first: what the exports hold. */
async function allLeads(profileId: string, q = ""): Promise<Lead[]> {
  return db.select().from(leads).where(matching(profileId, q)).orderBy(desc(leads.createdAt), desc(leads.id));
}

const NoteSchema = OptionalTextSchema(LEAD_NOTE_MAX, "Note", { multiline: true });

/** Keeps the owner's own note on one of their leads. */
export async function saveLeadNote(profileId: string, leadId: string, typed: unknown) {
  const note = parseForm(NoteSchema, typed);
  const saved = await db
    .update(leads)
    .set({ ownerNote: note })
    .where(and(eq(leads.id, leadId), eq(leads.profileId, profileId)))
    .returning({ id: leads.id });
  if (saved.length === 0) throw new NotFoundError("lead");
}

/** Deletes one of a card's leads, with any of its mails still queued. */
export async function deleteLead(profileId: string, leadId: string) {
  const deleted = await db
    .delete(leads)
    .where(and(eq(leads.id, leadId), eq(leads.profileId, profileId)))
    .returning({ name: leads.name });
  if (deleted.length === 0) throw new NotFoundError("lead");
  return deleted[0] as { name: string };
}

/** The leads as a spreadsheet: every cell neutralised, so none runs as a formula. */
export async function leadsCsv(profileId: string, q = ""): Promise<string> {
  const rows = await allLeads(profileId, q);
  return toCsv([
    ["Shared at (UTC)", "Name", "Email", "Phone", "Company", "Job title", "Their note", "Your note", "From"],
    ...rows.map((lead) => [
      lead.createdAt.toISOString(),
      lead.name,
      lead.email,
      lead.phone,
      lead.company,
      lead.title,
      lead.message,
      lead.ownerNote,
      LEAD_SOURCE_LABELS[lead.source],
    ]),
  ]);
}

/** The leads as one contact file of many cards, to import into a phone or a mail program. */
export async function leadsVcf(profileId: string, q = ""): Promise<string> {
  const rows = await allLeads(profileId, q);
  return rows.map(leadVCard).join("");
}

function leadVCard(lead: Lead): string {
  // A lead's one name field: the last word is taken as the family name, as address books sort by it.
  const words = lead.name.trim().split(/\s+/);
  const lastName = words.length > 1 ? (words.pop() as string) : "";
  return buildVCard({
    firstName: words.join(" "),
    lastName,
    organization: lead.company,
    details: {
      email: lead.email,
      phone: lead.phone,
      title: lead.title,
      bio: [lead.message, lead.ownerNote].filter(Boolean).join("\n\n") || null,
    },
    cardUrl: null,
    photoJpegBase64: null,
  });
}
