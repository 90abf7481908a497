import { asc, eq, sql } from "drizzle-orm";
import { db } from "../platform/db/client";
import { brandAdministrators } from "../platform/db/schema";

/**
 * Which brands an account administers (docs/decisions/044-brand-administrators.md), as the
 * session reads it with every request: a grant given and taken on accounts/brand-administration.ts.
 */

/** The brands an account administers, by id. */
export async function administeredBrands(userId: string): Promise<number[]> {
  const rows = await db
    .select({ brandId: brandAdministrators.brandId })
    .from(brandAdministrators)
    .where(eq(brandAdministrators.userId, userId))
    .orderBy(asc(brandAdministrators.brandId));
  return rows.map((row) => row.brandId);
}

/** The same list inside a larger select: the brand ids of the account `userId` names, comma-separated. */
export function administeredBrandsColumn(userId: unknown) {
  return sql<string | null>`(select string_agg(a.brand_id::text, ',' order by a.brand_id)
    from ${brandAdministrators} a where a.user_id = ${userId})`;
}

export function brandIdsOf(column: string | null): number[] {
  return column ? column.split(",").map(Number) : [];
}
