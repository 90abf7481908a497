import { and, asc, eq, inArray, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { ClaimFilter } from "~/lib/dashboard";
import { activeBrandOptions } from "../brands/list-brands";
import { db, rowsOf } from "../platform/db/client";
import { brands, profiles } from "../platform/db/schema";
import { cachedResult, cachedValue, directoryTotal } from "../platform/read-cache";
import { parseListFilters, parseSearchText } from "../platform/validation";
import { TILE_COLUMNS } from "./card-fields";
import { type CardViewer, completeVisibility, getFieldPolicies, shownDetails, viewerOfCard } from "./visibility";

/** One page of the directory: four rows of the widest grid, six of the narrowest. */
export const DIRECTORY_PAGE_SIZE = 24;
const MAX_QUERY_LENGTH = 100;
const DIRECTORY_BIO_LENGTH = 280;

export type DirectoryQuery = {
  q: string;
  brand: number | null;
  department: string | null;
  office: string | null;
  status: ClaimFilter;
  page: number;
};

/** The facets the directory narrows by, besides the brand: each a column of the card. */
const FACET_COLUMNS = { department: profiles.department, office: profiles.office } as const;
type FacetName = keyof typeof FACET_COLUMNS;
/** The values a facet lists: the most common ones, and the chosen one whatever its count. */
const MAX_FACET_VALUES = 50;

/**
 * Reads the search from the URL. A status the viewer may not filter by means
 * "all"; a malformed brand or page throws a ValidationError (a 400).
 */
export function parseDirectoryQuery(url: URL, options: { canFilterStatus: boolean }): DirectoryQuery {
  const { brand, page } = parseListFilters(url);
  const status = url.searchParams.get("status");
  return {
    q: parseSearchText(url, MAX_QUERY_LENGTH),
    brand,
    department: parseFacetText(url, "department"),
    office: parseFacetText(url, "office"),
    status: options.canFilterStatus && (status === "claimed" || status === "unclaimed") ? status : "all",
    page,
  };
}

/** `%` and `_` typed by a person are literal characters, not wildcards. */
function likeContains(value: string) {
  return `%${value.replace(/[\\%_]/g, "\\$&")}%`;
}

/** A facet's value from the URL: a field's text (at most its length), or null when not chosen. */
function parseFacetText(url: URL, name: FacetName): string | null {
  return parseSearchText(url, 100, name) || null;
}

type Filters = Pick<DirectoryQuery, "q" | "brand" | "department" | "office" | "status">;

function directoryConditions(query: Filters): SQL | undefined {
  // A deactivated card is in no one's directory (docs/decisions/019-deactivation-and-audit-log.md).
  const conditions: SQL[] = [isNull(profiles.deactivatedAt)];
  if (query.q) {
    // Case- and accent-insensitive substring match over every searchable field,
    // served by the trigram index on the generated search_text column.
    conditions.push(sql`${profiles.searchText} like namecard_fold(${likeContains(query.q)})`);
  }
  if (query.brand) conditions.push(eq(profiles.companyBrandId, query.brand));
  if (query.department) conditions.push(eq(profiles.department, query.department));
  if (query.office) conditions.push(eq(profiles.office, query.office));
  if (query.status === "claimed") conditions.push(isNotNull(profiles.userId));
  if (query.status === "unclaimed") conditions.push(isNull(profiles.userId));
  return and(...conditions);
}

/**
 * The directory list, on the server (docs/decisions/005-server-side-search.md): filtered, ordered by first name,
 * one page at a time with the total. Claim status is selected only when the
 * caller may see it (administrators only), so it never reaches a member's page data.
 */
export async function searchDirectory(
  query: DirectoryQuery,
  options: { includeClaimStatus: boolean; viewer: CardViewer },
) {
  const [{ total, page, pageCount, rows }, policies] = await Promise.all([
    cachedResult(
      `page ${JSON.stringify(query)}`,
      (page) => page.rows.map((row) => row.id),
      () => directoryPage(query),
    ),
    cachedValue("field policies", getFieldPolicies),
  ]);
  // Each person's details as this viewer may see them: the page data never holds more.
  const entries = rows.map(
    ({ claimed, brandName, brandPrimary, brandSecondary, userId, fieldVisibility, ...entry }) => ({
      ...shownDetails(entry, completeVisibility(fieldVisibility, policies), viewerOfCard(options.viewer, { userId })),
      brand: brandName ? { name: brandName, primaryColor: brandPrimary!, secondaryColor: brandSecondary! } : null,
      ...(options.includeClaimStatus ? { claimed } : {}),
    }),
  );
  return { total, page, pageCount, entries };
}

/** One page of people as the database has them, in order, before any viewer's share is taken. */
async function directoryPage(query: DirectoryQuery) {
  const where = directoryConditions(query);
  // Three characters or more make a trigram: the index finds few rows, and one
  // pass over them (materialized, so the planner cannot trade it for a walk of
  // the name index) gives the page and the total. Shorter searches match most
  // people, so the name index serves the page and a separate count the total.
  const selective = [...query.q].length >= 3;
  const order = [asc(profiles.firstName), asc(profiles.lastName), asc(profiles.id)];

  const pageIds = async (page: number): Promise<{ ids: string[]; total: number | null }> => {
    const offset = (page - 1) * DIRECTORY_PAGE_SIZE;
    if (selective) {
      const result = await db.execute(sql`
        with matches as materialized (
          select ${profiles.id} as id, ${profiles.firstName} as first_name, ${profiles.lastName} as last_name
          from ${profiles} where ${where}
        )
        select id, (count(*) over())::int as total from matches
        order by first_name, last_name, id
        limit ${DIRECTORY_PAGE_SIZE} offset ${offset}`);
      const rows = rowsOf(result) as { id: string; total: number }[];
      return { ids: rows.map((row) => row.id), total: rows[0]?.total ?? null };
    }
    const rows = await db
      .select({ id: profiles.id })
      .from(profiles)
      .where(where)
      .orderBy(...order)
      .limit(DIRECTORY_PAGE_SIZE)
      .offset(offset);
    return { ids: rows.map((row) => row.id), total: null };
  };
  const countAll = () =>
    directoryTotal(JSON.stringify([query.q, query.brand, query.department, query.office, query.status]), async () => {
      const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(profiles).where(where);
      return row?.total ?? 0;
    });

  let page = query.page;
  let found = await pageIds(page);
  let total = found.total ?? (await countAll());
  const pageCount = Math.max(1, Math.ceil(total / DIRECTORY_PAGE_SIZE));
  if (page > pageCount) {
    page = pageCount;
    found = await pageIds(page);
    total = found.total ?? total;
  }

  const rows = found.ids.length
    ? await db
        .select({
          id: profiles.id,
          firstName: profiles.firstName,
          lastName: profiles.lastName,
          username: profiles.username,
          ...TILE_COLUMNS,
          // A tile shows two lines of it at most: the rest would only weigh down the page.
          bio: sql<string | null>`left(${profiles.bio}, ${DIRECTORY_BIO_LENGTH})`,
          userId: profiles.userId,
          fieldVisibility: profiles.fieldVisibility,
          profilePhoto: profiles.profilePhoto,
          viewCount: profiles.viewCount,
          claimed: sql<boolean>`${profiles.userId} is not null`,
          brandName: brands.name,
          brandPrimary: brands.primaryColor,
          brandSecondary: brands.secondaryColor,
        })
        .from(profiles)
        .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
        .where(inArray(profiles.id, found.ids))
    : [];
  const position = new Map(found.ids.map((id, index) => [id, index]));
  rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  return { total, page, pageCount, rows };
}

/** The brands a search may narrow by, cached as the directory's other reads are. */
export function directoryBrandOptions() {
  return cachedValue("brand options", () => activeBrandOptions());
}

export type Facet<Value> = { value: Value; label: string; count: number }[];

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");

/**
 * The phone directory's A–Z index: for each letter, whether a first name
 * among the people found begins with it, and the page it begins on (the
 * directory is in first-name order, as the database orders names). Browsing
 * only: a search has no index. Cached between requests as totals are.
 */
export async function directoryLetters(query: DirectoryQuery): Promise<{ letter: string; page: number | null }[]> {
  if (query.q) return [];
  const { page: _page, ...filters } = query;
  return cachedValue(`letters ${JSON.stringify(filters)}`, async () => {
    const columns = LETTERS.map(
      (letter, index) =>
        sql`count(*) filter (where ${profiles.firstName} < ${letter})::int as ${sql.raw(`before_${index}`)},
          count(*) filter (where upper(left(${profiles.firstName}, 1)) = ${letter})::int as ${sql.raw(`with_${index}`)}`,
    );
    const [row] = rowsOf(
      await db.execute(sql`select ${sql.join(columns, sql`, `)} from ${profiles} where ${directoryConditions(query)}`),
    ) as Record<string, number>[];
    return LETTERS.map((letter, index) => ({
      letter,
      page: row?.[`with_${index}`] ? Math.floor((row[`before_${index}`] ?? 0) / DIRECTORY_PAGE_SIZE) + 1 : null,
    }));
  });
}

/**
 * How many people each brand, department and office has among those the rest
 * of the search finds: each facet counted with every filter but its own, so
 * its list offers the other choices too. Cached between requests as totals are.
 */
export async function directoryFacets(query: DirectoryQuery) {
  const { page: _page, ...filters } = query;
  return cachedValue(`facets ${JSON.stringify(filters)}`, async () => {
    const brandRows = await db
      .select({ id: brands.id, name: brands.name, count: sql<number>`count(*)::int` })
      .from(profiles)
      .innerJoin(brands, and(eq(brands.id, profiles.companyBrandId), eq(brands.active, true)))
      .where(directoryConditions({ ...filters, brand: null }))
      .groupBy(brands.id, brands.name)
      .orderBy(asc(brands.name));
    const counted = async (name: FacetName): Promise<Facet<string>> => {
      const column = FACET_COLUMNS[name];
      const chosen = filters[name];
      const rows = await db
        .select({ value: sql<string>`${column}`, count: sql<number>`count(*)::int` })
        .from(profiles)
        .where(and(directoryConditions({ ...filters, [name]: null }), isNotNull(column), sql`${column} <> ''`))
        .groupBy(column)
        .orderBy(sql`count(*) desc`, asc(column))
        .limit(MAX_FACET_VALUES);
      const values = rows.map((row) => ({ value: row.value, label: row.value, count: row.count }));
      if (chosen && !values.some((row) => row.value === chosen))
        values.push({ value: chosen, label: chosen, count: 0 });
      return values.sort((a, b) => a.label.localeCompare(b.label, "en"));
    };
    return {
      brand: brandRows.map((row) => ({ value: row.id, label: row.name, count: row.count })) as Facet<number>,
      department: await counted("department"),
      office: await counted("office"),
    };
  });
}
