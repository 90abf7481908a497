import { eq } from "drizzle-orm";
import type { FieldErrors } from "~/lib/action-result";
import {
  type BrandFieldRule,
  type BrandTemplate,
  brandPolicies,
  brandValues,
  CARD_FIELD_KEYS,
  CARD_FIELDS,
  type CardFieldKey,
  type CardLink,
  templateFieldNames,
  type Visibility,
} from "~/lib/card-fields";
import { decide } from "~/lib/permissions";
import { type AuditChanges, recordAdminAction } from "../audit/record";
import { describeRule, templateFrom } from "../brands/template";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { brands, profiles } from "../platform/db/schema";
import { assertUnchangedSince } from "../platform/edit-version";
import { NotFoundError, ValidationError } from "../platform/errors";
import { publish } from "../platform/realtime";
import { CARD_FIELD_RULES, linksFromText } from "./card-fields";
import { conformCards, getFieldPolicies } from "./visibility";

/**
 * A brand's card template (docs/decisions/045-brand-templates.md): read from
 * its form, saved with every card of the brand brought in line at once, and
 * read back where a card is edited.
 */

/**
 * The template as the brand's form sends it: each field's visibility (empty
 * follows the site), whether it is locked, and for a field a brand may set,
 * its value (checked as the card's own form checks it; a value locks the field).
 */
export function templateFromForm(values: Record<string, string>): BrandTemplate {
  const errors: FieldErrors = {};
  const template: BrandTemplate = {};
  for (const key of CARD_FIELD_KEYS) {
    const names = templateFieldNames(key);
    const { label, choices, brandValue, kind } = CARD_FIELDS[key];
    const visibilityText = values[names.visibility] ?? "";
    if (visibilityText !== "" && !(choices as readonly string[]).includes(visibilityText)) {
      errors[names.visibility] = [`Choose who sees the ${label.toLowerCase()} from the list`];
      continue;
    }
    let value: BrandFieldRule["value"] = null;
    const typed = brandValue ? (values[names.value] ?? "").trim() : "";
    if (typed) {
      const given = kind === "links" ? linksFromText(typed) : typed;
      const checked = CARD_FIELD_RULES[key].schema.safeParse(given);
      if (!checked.success) {
        errors[names.value] = [checked.error.issues[0]?.message ?? `Check the ${label.toLowerCase()}`];
        continue;
      }
      value = checked.data as string | CardLink[] | null;
      if (Array.isArray(value) && value.length === 0) value = null;
    }
    const locked = values[names.locked] === "on" || value !== null;
    const visibility = visibilityText === "" ? null : (visibilityText as Visibility);
    if (visibility !== null || locked) template[key] = { visibility, locked, value };
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return template;
}

/**
 * Who decided each field a person cannot change on their card: the site's
 * administrators ("your company") or the card's brand (by its name).
 */
export async function fieldLocks(brandId: number | null): Promise<Partial<Record<CardFieldKey, string>>> {
  const site = await getFieldPolicies();
  const [brand] =
    brandId === null
      ? []
      : await db.select({ name: brands.name, template: brands.template }).from(brands).where(eq(brands.id, brandId));
  const template = templateFrom(brand?.template);
  const policies = brandPolicies(site, template);
  const fixed = brandValues(template);
  const locks: Partial<Record<CardFieldKey, string>> = {};
  for (const key of CARD_FIELD_KEYS) {
    if (site[key].locked) locks[key] = "your company";
    else if (policies[key].locked || key in fixed) locks[key] = brand?.name ?? "your company";
  }
  return locks;
}

export type SaveBrandTemplateOptions = {
  actor: Actor;
  brandId: number;
  template: BrandTemplate;
  /** The brand's version the form was opened on: a save over someone else's later change is refused. */
  version?: Date;
};

/**
 * Saves a brand's template and brings every card of the brand in line in the
 * same transaction: one audit entry names each field's change and how many
 * cards followed, and every instance drops the pages it kept.
 */
export async function saveBrandTemplate({ actor, brandId, template, version }: SaveBrandTemplateOptions) {
  const result = await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ name: brands.name, template: brands.template, updatedAt: brands.updatedAt })
      .from(brands)
      .where(eq(brands.id, brandId))
      .for("update");
    if (!current || !decide(actor, "manage:brand", { brandId })) throw new NotFoundError("brand");
    assertUnchangedSince(version, current.updatedAt, "brand");
    const before = templateFrom(current.template);
    const changes: AuditChanges = {};
    for (const key of CARD_FIELD_KEYS) {
      const [was, now] = [describeRule(before[key]), describeRule(template[key])];
      if (was !== now) changes[`template: ${CARD_FIELDS[key].auditLabel}`] = [was, now];
    }
    if (Object.keys(changes).length === 0) return { name: current.name, cards: 0, changed: false };
    await tx.update(brands).set({ template, updatedAt: new Date() }).where(eq(brands.id, brandId));
    const cards = (await conformCards(tx, eq(profiles.companyBrandId, brandId))).length;
    await recordAdminAction(tx, {
      actor,
      action: "update",
      target: { kind: "brand", id: brandId, label: current.name },
      changes: { ...changes, "cards updated": [null, String(cards)] },
    });
    return { name: current.name, cards, changed: true };
  });
  // Every instance drops the pages and lists it kept of the brand's cards.
  if (result.changed) await publish({ kind: "brand", id: String(brandId) });
  return result;
}
