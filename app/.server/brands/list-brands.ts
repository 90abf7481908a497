import { asc, eq, or, sql } from "drizzle-orm";
import type { Reach } from "../access/scope";
import { db } from "../platform/db/client";
import { brands, profiles } from "../platform/db/schema";

/** Every brand within reach (profiles/scope.ts) with how many profiles use it, by name. */
export async function listBrandsWithUsage({ brands: within }: Reach) {
  return db
    .select({
      id: brands.id,
      name: brands.name,
      primaryColor: brands.primaryColor,
      secondaryColor: brands.secondaryColor,
      logo: brands.logo,
      coverImage: brands.coverImage,
      website: brands.website,
      defaultLocale: brands.defaultLocale,
      active: brands.active,
      membersChangeBrand: brands.membersChangeBrand,
      isDefault: brands.isDefault,
      qrLogo: brands.qrLogo,
      template: brands.template,
      updatedAt: brands.updatedAt,
      profileCount: sql<number>`(select count(*)::int from ${profiles} as p where p.company_brand_id = ${brands}.id)`,
    })
    .from(brands)
    .where(within)
    .orderBy(asc(brands.name));
}

/** Active brands for a picker, plus the card's current brand if it was deactivated since. */
export async function activeBrandOptions(currentBrandId: number | null = null) {
  return db
    .select({ id: brands.id, name: brands.name })
    .from(brands)
    .where(currentBrandId ? or(eq(brands.active, true), eq(brands.id, currentBrandId)) : eq(brands.active, true))
    .orderBy(brands.name);
}

/** A brand as a sentence names it: its name, or "no brand". */
export async function brandLabel(brandId: number | null): Promise<string> {
  if (brandId === null) return "no brand";
  const [brand] = await db.select({ name: brands.name }).from(brands).where(eq(brands.id, brandId));
  return brand?.name ?? "no brand";
}
