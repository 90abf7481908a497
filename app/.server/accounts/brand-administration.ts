import { asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { fullName } from "~/lib/names";
import { can } from "~/lib/permissions";
import { administeredBrands } from "../access/brand-grants";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { roleOf } from "../platform/admins";
import { db } from "../platform/db/client";
import { brandAdministrators, brands, profiles, users } from "../platform/db/schema";
import { ForbiddenError, ValidationError } from "../platform/errors";
import { publish } from "../platform/realtime";
import { TextSchema } from "../platform/validation";
import { cardLabel } from "../profiles/card-writer";
import { ProfileIdSchema } from "../profiles/schemas";
import { lockedCardAndAccount } from "./card-account";

/**
 * Brand administrators (docs/decisions/044-brand-administrators.md): an
 * account that runs some brands' cards, look, analytics and audit entries. Who administers what is read with every request, so a change
 * applies at once, on every instance.
 */

/** Why brand administration could not be given, as the form says it. */
export const BRAND_ADMINISTRATOR_MESSAGES = {
  unclaimed: "Only someone who has signed in can administer a brand: this card has no account yet.",
  deactivated: "A deactivated card cannot administer a brand: reactivate it first.",
  administrator: "An administrator already runs every brand.",
  unknownBrand: "One of the chosen brands no longer exists: reload the page and choose again.",
  unknownPerson: "No card has this username or address: enter the person's username or work address.",
};

/** The brand administration form: a card, and the brands its owner is to run (none: no brand). */
export const BrandAdministrationSchema = ProfileIdSchema.extend({
  brandIds: z
    .array(
      z
        .string()
        .regex(/^[0-9]{1,9}$/, BRAND_ADMINISTRATOR_MESSAGES.unknownBrand)
        .transform(Number),
    )
    .max(500, BRAND_ADMINISTRATOR_MESSAGES.unknownBrand),
});

/** Each brand's administrators, for the brands page: name, address and card. */
export async function administratorsByBrand(brandIds: readonly number[]) {
  if (!brandIds.length) return new Map<number, { profileId: string; name: string; email: string }[]>();
  const rows = await db
    .select({
      brandId: brandAdministrators.brandId,
      profileId: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: users.email,
    })
    .from(brandAdministrators)
    .innerJoin(users, eq(users.id, brandAdministrators.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(inArray(brandAdministrators.brandId, [...brandIds]))
    .orderBy(asc(profiles.firstName), asc(profiles.lastName));
  const byBrand = new Map<number, { profileId: string; name: string; email: string }[]>();
  for (const row of rows) {
    const list = byBrand.get(row.brandId) ?? [];
    list.push({ profileId: row.profileId, name: cardLabel(row), email: row.email });
    byBrand.set(row.brandId, list);
  }
  return byBrand;
}

/**
 * Makes the owner of a card the administrator of exactly `brandIds` (none:
 * no brand at all). The change and one audit entry naming the brands before
 * and after are written together; asking for what already holds records
 * nothing.
 */
export async function setAdministeredBrands({
  actor,
  profileId,
  brandIds,
}: {
  actor: Actor;
  profileId: string;
  brandIds: readonly number[];
}): Promise<{ name: string; brands: string[]; changed: boolean }> {
  if (!can(actor.role, "update:role:any")) throw new ForbiddenError();
  const wanted = [...new Set(brandIds)].sort((a, b) => a - b);
  const result = await db.transaction(async (tx) => {
    const card = await lockedCardAndAccount(tx, profileId);
    if (!card.userId || !card.email) throw new ValidationError({ brandIds: [BRAND_ADMINISTRATOR_MESSAGES.unclaimed] });
    const chosen = wanted.length
      ? await tx
          .select({ id: brands.id, name: brands.name })
          .from(brands)
          .where(inArray(brands.id, wanted))
          .orderBy(asc(brands.name))
      : [];
    if (chosen.length !== wanted.length) {
      throw new ValidationError({ brandIds: [BRAND_ADMINISTRATOR_MESSAGES.unknownBrand] });
    }
    const before = await tx
      .select({ id: brands.id, name: brands.name })
      .from(brandAdministrators)
      .innerJoin(brands, eq(brands.id, brandAdministrators.brandId))
      .where(eq(brandAdministrators.userId, card.userId))
      .orderBy(asc(brands.name));
    const label = cardLabel(card);
    const names = chosen.map((brand) => brand.name);
    if (before.map((brand) => brand.id).join() === chosen.map((brand) => brand.id).join()) {
      return { card, label, names, changed: false };
    }
    if (chosen.length && card.deactivatedAt) {
      throw new ValidationError({ brandIds: [BRAND_ADMINISTRATOR_MESSAGES.deactivated] });
    }
    if (chosen.length && roleOf({ email: card.email, role: card.role }) === "admin") {
      throw new ValidationError({ brandIds: [BRAND_ADMINISTRATOR_MESSAGES.administrator] });
    }
    await tx.delete(brandAdministrators).where(eq(brandAdministrators.userId, card.userId));
    if (chosen.length) {
      await tx.insert(brandAdministrators).values(chosen.map((brand) => ({ userId: card.userId!, brandId: brand.id })));
    }
    await recordAdminAction(tx, {
      actor,
      action: "brand-administrator",
      target: { kind: "profile", id: card.id, label },
      changes: { brands: [before.map((brand) => brand.name).join(", ") || null, names.join(", ") || null] },
    });
    return { card, label, names, changed: true };
  });
  // Their open pages refresh, and show the navigation of what they now run.
  if (result.changed) await publish({ kind: "profile", id: result.card.id });
  return { name: fullName(result.card), brands: result.names, changed: result.changed };
}

/** Appointing from a brand's page: the person, by their card's username or address. */
export const BrandAppointmentSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, BRAND_ADMINISTRATOR_MESSAGES.unknownBrand)
    .transform(Number),
  person: z
    .string({ message: BRAND_ADMINISTRATOR_MESSAGES.unknownPerson })
    .pipe(TextSchema("Username or address"))
    .pipe(
      z
        .string()
        .min(1, BRAND_ADMINISTRATOR_MESSAGES.unknownPerson)
        .max(254, BRAND_ADMINISTRATOR_MESSAGES.unknownPerson),
    ),
});

/**
 * Adds one brand to what the owner of a card runs, or takes it away (`grant`
 * false), from the brand's page: the card is named by its username (with or
 * without @) or its address. The same change, on the record, as on the person's row.
 */
export async function appointForBrand({
  actor,
  brandId,
  person,
  grant,
}: {
  actor: Actor;
  brandId: number;
  person: string;
  grant: boolean;
}) {
  if (!can(actor.role, "update:role:any")) throw new ForbiddenError();
  const wanted = person.replace(/^@/, "").toLowerCase();
  const [card] = await db
    .select({ id: profiles.id, userId: profiles.userId })
    .from(profiles)
    .where(sql`lower(${profiles.username}) = ${wanted} or lower(${profiles.email}) = ${wanted}`)
    .limit(1);
  if (!card) throw new ValidationError({ person: [BRAND_ADMINISTRATOR_MESSAGES.unknownPerson] });
  const current = card.userId ? await administeredBrands(card.userId) : [];
  const brandIds = grant ? [...current, brandId] : current.filter((id) => id !== brandId);
  try {
    return await setAdministeredBrands({ actor, profileId: card.id, brandIds });
  } catch (error) {
    // Said on the field the person was typed in.
    if (error instanceof ValidationError && error.fieldErrors.brandIds) {
      throw new ValidationError({ person: error.fieldErrors.brandIds });
    }
    throw error;
  }
}
