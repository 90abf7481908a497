import { fullName } from "~/lib/names";
import { administrationScope } from "~/lib/permissions";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { getCardByUsername, managesCard } from "../profiles/get-card";
import { adminsSeeLeads } from "./retention";

export type LeadsOf = { profileId: string; name: string; username: string; own: boolean };

type Reader = Actor & {
  isAdmin: boolean;
  profile: { id: string; username: string; firstName: string; lastName: string } | null;
};

/**
 * Whose leads a reader reads (docs/decisions/034-leads.md): their own card's,
 * or, for an administrator (of the whole site, or of the card's brand) when the company's settings allow it, the card
 * `asked` for (to read only), which the audit log records each time.
 * "hidden" for anyone else, the same whether or not the card exists; null
 * when the reader has no card of their own.
 */
export async function leadsOf(reader: Reader, asked: string | null): Promise<LeadsOf | "hidden" | null> {
  const own = reader.profile;
  if (asked && !(own && asked.toLowerCase() === own.username.toLowerCase())) {
    if (!administrationScope(reader) || !(await adminsSeeLeads())) return "hidden";
    const card = await getCardByUsername(asked);
    // An administrator reads any card's leads, a brand administrator those of the cards they manage only.
    if (!card || !(await managesCard(reader, card.id))) return "hidden";
    await recordAdminAction(db, {
      actor: reader,
      action: "read",
      target: { kind: "leads", id: card.id, label: `${fullName(card)}'s leads` },
    });
    return { profileId: card.id, name: fullName(card), username: card.username, own: false };
  }
  if (!own) return null;
  return { profileId: own.id, name: fullName(own), username: own.username, own: true };
}
