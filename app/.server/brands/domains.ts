import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { db, type Queryable } from "../platform/db/client";
import { brandDomains, brands } from "../platform/db/schema";
import { domainOf } from "../platform/email-domains";
import { ValidationError } from "../platform/errors";

/**
 * Brand domains (docs/decisions/044-brand-administrators.md): a card made
 * without a brand (a sign-up, a first single sign-on, a provider's new person,
 * an import row, an administrator's card) takes the brand of its address's
 * domain, or of a subdomain's nearest listed parent; an address at no brand's
 * domain takes the default brand, when the administrators chose one.
 */

/** Where cards made without a brand go: a function of the address, read once for a whole batch. */
export async function brandPlacement(tx: Queryable = db): Promise<(email: string) => number | null> {
  const [domains, [fallback]] = await Promise.all([
    tx.select({ domain: brandDomains.domain, brandId: brandDomains.brandId }).from(brandDomains),
    tx.select({ id: brands.id }).from(brands).where(sql`${brands.isDefault} and ${brands.active}`),
  ]);
  const byDomain = new Map(domains.map((row) => [row.domain, row.brandId]));
  return (email) => {
    const labels = domainOf(email).split(".");
    // The address's own domain first, then each parent: team.example.com, then example.com.
    for (let start = 0; start < labels.length - 1; start++) {
      const brandId = byDomain.get(labels.slice(start).join("."));
      if (brandId !== undefined) return brandId;
    }
    return fallback?.id ?? null;
  };
}

/** Every brand's domains: who can join lets their people in too. */
export async function allBrandDomains(tx: Queryable = db): Promise<string[]> {
  const rows = await tx.select({ domain: brandDomains.domain }).from(brandDomains).orderBy(asc(brandDomains.domain));
  return rows.map((row) => row.domain);
}

/** The domains of each of these brands, for the brands page. */
export async function domainsByBrand(brandIds: readonly number[], tx: Queryable = db): Promise<Map<number, string[]>> {
  const byBrand = new Map<number, string[]>();
  if (!brandIds.length) return byBrand;
  const rows = await tx
    .select({ domain: brandDomains.domain, brandId: brandDomains.brandId })
    .from(brandDomains)
    .where(inArray(brandDomains.brandId, [...brandIds]))
    .orderBy(asc(brandDomains.domain));
  for (const row of rows) byBrand.set(row.brandId, [...(byBrand.get(row.brandId) ?? []), row.domain]);
  return byBrand;
}

/**
 * Makes `domains` exactly the brand's, in the caller's transaction. A domain
 * another brand lists is refused on the field, naming that brand: each
 * domain places its people in one brand.
 */
export async function setBrandDomains(tx: Queryable, brandId: number, domains: readonly string[]): Promise<void> {
  if (domains.length) {
    const taken = await tx
      .select({ domain: brandDomains.domain, brand: brands.name })
      .from(brandDomains)
      .innerJoin(brands, eq(brands.id, brandDomains.brandId))
      .where(and(inArray(brandDomains.domain, [...domains]), ne(brandDomains.brandId, brandId)));
    if (taken.length) {
      throw new ValidationError({
        emailDomains: taken.map((row) => `${row.domain} is ${row.brand}'s already: a domain belongs to one brand.`),
      });
    }
  }
  await tx.delete(brandDomains).where(eq(brandDomains.brandId, brandId));
  if (domains.length) await tx.insert(brandDomains).values(domains.map((domain) => ({ domain, brandId })));
}
