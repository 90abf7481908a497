import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { FieldErrors } from "~/lib/action-result";
import {
  allowedVisibility,
  brandPolicies,
  brandValues,
  CARD_FIELD_KEYS,
  CARD_FIELDS,
  type CardFieldKey,
  canSee,
  DEFAULT_FIELD_POLICIES,
  type FieldPolicies,
  type FieldVisibility,
  VISIBILITIES,
  type Viewer,
  type Visibility,
} from "~/lib/card-fields";
import { decide, type Role } from "~/lib/permissions";
import { templateFrom } from "../brands/template";
import type { Queryable } from "../platform/db/client";
import { db } from "../platform/db/client";
import { brands, profiles, siteSettings } from "../platform/db/schema";
import { ValidationError } from "../platform/errors";
import { CARD_DETAIL_COLUMNS } from "./card-fields";

/**
 * Who sees which detail of a card, decided here for every output: the page,
 * the QR page, the contact file, the preview image, the directory and the
 * exports meant for members all pass a card through `shownDetails` before
 * anything of it leaves the server (docs/decisions/028-card-fields-and-visibility.md).
 */

function isVisibility(value: unknown): value is Visibility {
  return typeof value === "string" && (VISIBILITIES as readonly string[]).includes(value);
}

/** The company's policies as stored, each field's checked; anything unreadable is the default. */
export function policiesFrom(stored: unknown): FieldPolicies {
  const policies = { ...DEFAULT_FIELD_POLICIES };
  if (!stored || typeof stored !== "object") return policies;
  for (const key of CARD_FIELD_KEYS) {
    const policy = (stored as Record<string, unknown>)[key] as { visibility?: unknown; locked?: unknown } | undefined;
    if (!policy || typeof policy !== "object") continue;
    policies[key] = {
      visibility: isVisibility(policy.visibility)
        ? allowedVisibility(key, policy.visibility)
        : DEFAULT_FIELD_POLICIES[key].visibility,
      locked: policy.locked === true,
    };
  }
  return policies;
}

export async function getFieldPolicies(tx: Queryable = db): Promise<FieldPolicies> {
  const [row] = await tx
    .select({ policies: siteSettings.fieldPolicies })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
    .limit(1);
  return policiesFrom(row?.policies);
}

/** The visibility in effect for each field: the owner's choice, unless the company locked the field or they made none. */
export function effectiveVisibility(choices: Partial<FieldVisibility>, policies: FieldPolicies): FieldVisibility {
  return Object.fromEntries(
    CARD_FIELD_KEYS.map((key) => {
      const policy = policies[key];
      const chosen = choices[key];
      return [key, policy.locked || !isVisibility(chosen) ? policy.visibility : allowedVisibility(key, chosen)];
    }),
  ) as FieldVisibility;
}

/** The visibilities a new card starts with: the company's defaults. */
export async function newCardVisibility(tx: Queryable = db): Promise<FieldVisibility> {
  return effectiveVisibility({}, await getFieldPolicies(tx));
}

/** A card's stored visibilities, completed by the company's defaults for a field it has none for. */
export function completeVisibility(stored: Partial<FieldVisibility>, policies: FieldPolicies): FieldVisibility {
  return Object.fromEntries(
    CARD_FIELD_KEYS.map((key) => {
      const value = stored[key];
      return [key, isVisibility(value) ? value : policies[key].visibility];
    }),
  ) as FieldVisibility;
}

/**
 * The company's policies as the settings form sends them
 * (`fieldPolicy.FIELD.visibility` and `fieldPolicy.FIELD.locked`), or null
 * when the form has none of them (it leaves the policies as they are).
 */
export function fieldPoliciesFromForm(values: Record<string, string>): FieldPolicies | null {
  if (!CARD_FIELD_KEYS.some((key) => `fieldPolicy.${key}.visibility` in values)) return null;
  const errors: FieldErrors = {};
  const policies = { ...DEFAULT_FIELD_POLICIES };
  for (const key of CARD_FIELD_KEYS) {
    const name = `fieldPolicy.${key}.visibility`;
    const visibility = values[name] ?? DEFAULT_FIELD_POLICIES[key].visibility;
    const choices: readonly string[] = CARD_FIELDS[key].choices;
    if (!choices.includes(visibility)) {
      errors[name] = [`Choose who sees the ${CARD_FIELDS[key].label.toLowerCase()} from the list`];
      continue;
    }
    policies[key] = { visibility: visibility as Visibility, locked: values[`fieldPolicy.${key}.locked`] === "on" };
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return policies;
}

/**
 * Brings the cards `where` picks (every card without it) in line with the
 * policies in force: the site's, then their brand's template
 * (docs/decisions/045-brand-templates.md). A locked field takes the policy's
 * visibility, an open one keeps its owner's choice or follows the default,
 * and a value the brand sets is written on each card of it. One statement
 * per brand among them. Returns the ids of the cards that changed.
 */
export async function conformCards(tx: Queryable, where?: SQL): Promise<string[]> {
  const site = await getFieldPolicies(tx);
  const groups = await tx
    .select({ brandId: profiles.companyBrandId, template: brands.template })
    .from(profiles)
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(where)
    .groupBy(profiles.companyBrandId, brands.id);
  const written: string[] = [];
  for (const group of groups) {
    const template = templateFrom(group.template);
    const policies = brandPolicies(site, template);
    const inGroup =
      group.brandId === null ? isNull(profiles.companyBrandId) : eq(profiles.companyBrandId, group.brandId);
    const visibility = visibilityExpression(policies);
    const values = brandValues(template);
    // Only cards that differ are written: a card already in line (most, after an import) costs no new row version.
    const differs = [
      sql`${profiles.fieldVisibility} is distinct from ${visibility}`,
      ...Object.entries(values).map(([key, value]) =>
        Array.isArray(value)
          ? sql`${profiles.links} is distinct from ${JSON.stringify(value)}::jsonb`
          : sql`${CARD_DETAIL_COLUMNS[key as keyof typeof values]} is distinct from ${value}`,
      ),
    ];
    const rows = await tx
      .update(profiles)
      .set({ fieldVisibility: visibility, ...values })
      .where(and(inGroup, where, or(...differs)))
      .returning({ id: profiles.id });
    for (const row of rows) written.push(row.id);
  }
  return written;
}

/** Each field's visibility in force under `policies`, as one expression over a card's own choices. */
function visibilityExpression(policies: FieldPolicies): SQL {
  const entries = CARD_FIELD_KEYS.map((key) => {
    const policy = policies[key];
    const allowed = CARD_FIELDS[key].choices.map((choice) => sql`${choice}::text`);
    const value = policy.locked
      ? sql`${policy.visibility}::text`
      : sql`case when ${profiles.visibilityChoices}->>${key} in (${sql.join(allowed, sql`, `)})
          then ${profiles.visibilityChoices}->>${key} else ${policy.visibility}::text end`;
    return sql`${key}::text, ${value}`;
  });
  return sql`jsonb_build_object(${sql.join(entries, sql`, `)})`;
}

/**
 * How a viewer stands to a card: its owner, an administrator (of the whole
 * site, or of the card's brand when the card's brand is known), a signed-in
 * colleague, or a visitor.
 */
export function viewerOfCard(
  viewer: CardViewer | null,
  card: { userId: string | null; brand?: { id: number | null } | null },
): Viewer {
  if (!viewer) return "visitor";
  if (card.userId !== null && viewer.user.id === card.userId) return "owner";
  return decide(viewer, "read:hidden-fields", { brandId: card.brand?.id ?? null }) ? "admin" : "colleague";
}

/** A signed-in person looking at cards. */
export type CardViewer = { user: { id: string }; role: Role; brandIds?: readonly number[] };

/** A card as a viewer gets it: any detail may be missing. */
export type Shown<Card> = {
  [K in keyof Card]: K extends "links" ? Card[K] : K extends CardFieldKey ? Card[K] | null : Card[K];
};

/**
 * The card with each detail the viewer may not see emptied: text becomes
 * null and links an empty list, so an output shows nothing of it and a page
 * never sends it to the browser.
 */
export function shownDetails<Card extends Partial<Record<CardFieldKey, unknown>>>(
  card: Card,
  visibility: FieldVisibility,
  viewer: Viewer,
): Shown<Card> {
  const shown: Record<string, unknown> = { ...card };
  for (const key of CARD_FIELD_KEYS) {
    if (!(key in card) || canSee(viewer, visibility[key])) continue;
    shown[key] = key === "links" ? [] : null;
  }
  return shown as Shown<Card>;
}
