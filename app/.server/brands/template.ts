import { eq } from "drizzle-orm";
import {
  type BrandFieldRule,
  type BrandTemplate,
  CARD_FIELD_KEYS,
  CARD_FIELDS,
  type CardFieldKey,
  type CardLink,
  isLinkKind,
  VISIBILITY_LABELS,
  type Visibility,
} from "~/lib/card-fields";
import { db, type Queryable } from "../platform/db/client";
import { brands } from "../platform/db/schema";

/**
 * A brand's card template as stored, checked field by field: a rule that
 * cannot be read (a field no longer known, a visibility the field does not
 * offer) is left out, so a card follows the site's policy for it.
 */
export function templateFrom(stored: unknown): BrandTemplate {
  const template: BrandTemplate = {};
  if (!stored || typeof stored !== "object") return template;
  for (const key of CARD_FIELD_KEYS) {
    const rule = (stored as Record<string, unknown>)[key];
    if (!rule || typeof rule !== "object") continue;
    const { visibility, locked, value } = rule as Record<string, unknown>;
    const choices: readonly string[] = CARD_FIELDS[key].choices;
    template[key] = {
      visibility: typeof visibility === "string" && choices.includes(visibility) ? (visibility as Visibility) : null,
      locked: locked === true,
      value: locked === true && CARD_FIELDS[key].brandValue ? valueFrom(key, value) : null,
    };
  }
  return template;
}

function valueFrom(key: CardFieldKey, value: unknown): BrandFieldRule["value"] {
  if (CARD_FIELDS[key].kind === "links") {
    if (!Array.isArray(value)) return null;
    const links = value.filter(
      (link): link is CardLink =>
        typeof link?.url === "string" && typeof link?.kind === "string" && isLinkKind(link.kind),
    );
    return links.length ? links : null;
  }
  return typeof value === "string" && value.trim() ? value : null;
}

/** The template of one brand, or an empty one for a card without a brand (or a brand since deleted). */
export async function brandTemplate(brandId: number | null, tx: Queryable = db): Promise<BrandTemplate> {
  if (brandId === null) return {};
  const [row] = await tx.select({ template: brands.template }).from(brands).where(eq(brands.id, brandId));
  return templateFrom(row?.template);
}

/** One field's rule as the audit log and the brand's page read it: "Colleagues, locked: +1 555 0100". */
export function describeRule(rule: BrandFieldRule | undefined): string | null {
  if (!rule || (rule.visibility === null && !rule.locked)) return null;
  const parts = [rule.visibility ? VISIBILITY_LABELS[rule.visibility] : "site default"];
  if (rule.locked) parts.push("locked");
  const value = Array.isArray(rule.value) ? rule.value.map((link) => link.url).join(", ") : rule.value;
  return value ? `${parts.join(", ")}: ${value}` : parts.join(", ");
}
