import { type SQL, and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { db } from "./db/client";
import { brands, profiles } from "./db/schema";

/** One page of the directory: four rows of the widest grid, six of the narrowest. */
export const DIRECTORY_PAGE_SIZE = 24;
const MAX_QUERY_LENGTH = 100;

export type ClaimFilter = "all" | "claimed" | "unclaimed";

export type DirectoryQuery = {
  q: string;
  brand: number | null;
  status: ClaimFilter;
  page: number;
};

/** Reads the search from the URL; values that make no sense fall back to "everything". */
export function parseDirectoryQuery(url: URL, options: { canFilterStatus: boolean }): DirectoryQuery {
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_QUERY_LENGTH);
  const brand = Number(url.searchParams.get("brand"));
  const status = url.searchParams.get("status");
  const page = Number(url.searchParams.get("page"));
  return {
    q,
    brand: Number.isInteger(brand) && brand > 0 ? brand : null,
    status: options.canFilterStatus && (status === "claimed" || status === "unclaimed") ? status : "all",
    page: Number.isInteger(page) && page > 1 ? Math.min(page, 10_000) : 1,
  };
}

/** `%` and `_` typed by a person are literal characters, not wildcards. */
function likeContains(value: string) {
  return `%${value.replace(/[\\%_]/g, "\\$&")}%`;
}

export function directoryConditions(query: Pick<DirectoryQuery, "q" | "brand" | "status">): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.q) {
    // Case- and accent-insensitive substring match over every searchable field,
    // served by the trigram index on the generated search_text column.
    conditions.push(sql`${profiles.searchText} like namecard_fold(${likeContains(query.q)})`);
  }
  if (query.brand) conditions.push(eq(profiles.companyBrandId, query.brand));
  if (query.status === "claimed") conditions.push(isNotNull(profiles.userId));
  if (query.status === "unclaimed") conditions.push(isNull(profiles.userId));
  return conditions.length ? and(...conditions) : undefined;
}

export type DirectoryEntry = Awaited<ReturnType<typeof searchDirectory>>["entries"][number];

/**
 * Spec §7 "Directory list", on the server: filtered, ordered by first name,
 * one page at a time with the total. Claim status is selected only when the
 * caller may see it (spec §6), so it never reaches a member's page data.
 */
export async function searchDirectory(query: DirectoryQuery, options: { includeClaimStatus: boolean }) {
  const where = directoryConditions(query);
  const [countRow] = await db.select({ total: sql<number>`count(*)::int` }).from(profiles).where(where);
  const total = countRow?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / DIRECTORY_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const rows = await db
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      username: profiles.username,
      title: profiles.title,
      email: profiles.email,
      phone: profiles.phone,
      bio: profiles.bio,
      linkedinUrl: profiles.linkedinUrl,
      profilePhoto: profiles.profilePhoto,
      viewCount: profiles.viewCount,
      claimed: sql<boolean>`${profiles.userId} is not null`,
      brandName: brands.name,
      brandPrimary: brands.primaryColor,
      brandSecondary: brands.secondaryColor,
    })
    .from(profiles)
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(where)
    .orderBy(asc(profiles.firstName), asc(profiles.lastName), asc(profiles.id))
    .limit(DIRECTORY_PAGE_SIZE)
    .offset((page - 1) * DIRECTORY_PAGE_SIZE);
  const entries = rows.map(({ claimed, brandName, brandPrimary, brandSecondary, ...entry }) => ({
    ...entry,
    brand: brandName ? { name: brandName, primaryColor: brandPrimary!, secondaryColor: brandSecondary! } : null,
    ...(options.includeClaimStatus ? { claimed } : {}),
  }));
  return { total, page, pageCount, entries };
}
