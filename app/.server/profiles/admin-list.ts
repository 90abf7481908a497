import { and, desc, eq, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import { type AdminProfileQuery, INVITATION_FILTERS, type InvitationFilter } from "~/lib/dashboard";
import { administeredBrandsColumn, brandIdsOf } from "../access/brand-grants";
import type { Reach } from "../access/scope";
import { isAdminEmail, roleOf } from "../platform/admins";
import { db } from "../platform/db/client";
import { brands, invitations, passkeys, profiles, usernameRedirects, users } from "../platform/db/schema";
import { parseListFilters, parseSearchText } from "../platform/validation";
import { CARD_DETAIL_COLUMNS } from "./card-fields";

const ADMIN_PAGE_SIZE = 20;

/** Reads the dashboard's filters; a malformed brand or page throws a ValidationError (a 400). */
export function parseAdminProfileQuery(url: URL): AdminProfileQuery {
  const { brand, page } = parseListFilters(url);
  const status = url.searchParams.get("status");
  const state = url.searchParams.get("state");
  return {
    state: state === "active" || state === "deactivated" ? state : "all",
    q: parseSearchText(url),
    brand,
    status: status === "claimed" || status === "unclaimed" ? status : "all",
    page,
    invitation: parseInvitationFilter(url),
  };
}

function parseInvitationFilter(url: URL): InvitationFilter {
  const value = url.searchParams.get("invitation");
  return (INVITATION_FILTERS as readonly string[]).includes(value ?? "") ? (value as InvitationFilter) : "all";
}

/** The invitation state filter: on the invitations row joined to each card. */
function invitationCondition(filter: InvitationFilter): SQL | undefined {
  switch (filter) {
    case "not-invited":
      return and(isNull(profiles.userId), isNull(invitations.profileId));
    case "invited":
      return and(isNull(profiles.userId), eq(invitations.remindersSent, 0));
    case "reminded":
      return and(isNull(profiles.userId), sql`${invitations.remindersSent} > 0`);
    case "claimed":
      return isNotNull(profiles.userId);
    default:
      return undefined;
  }
}

/** The dashboard searches name, email and username, not the bio. */
function conditions(query: AdminProfileQuery): SQL | undefined {
  const parts: SQL[] = [];
  if (query.q) {
    const pattern = `%${query.q.replace(/[\\%_]/g, "\\$&")}%`;
    const folded = sql`namecard_fold(${pattern})`;
    parts.push(
      or(
        sql`namecard_fold(${profiles.firstName} || ' ' || ${profiles.lastName}) like ${folded}`,
        sql`namecard_fold(${profiles.email}) like ${folded}`,
        sql`namecard_fold(${profiles.username}) like ${folded}`,
      )!,
    );
  }
  if (query.brand) parts.push(eq(profiles.companyBrandId, query.brand));
  if (query.status === "claimed") parts.push(isNotNull(profiles.userId));
  if (query.status === "unclaimed") parts.push(isNull(profiles.userId));
  const invitation = invitationCondition(query.invitation);
  if (invitation) parts.push(invitation);
  if (query.state === "active") parts.push(isNull(profiles.deactivatedAt));
  if (query.state === "deactivated") parts.push(isNotNull(profiles.deactivatedAt));
  return parts.length ? and(...parts) : undefined;
}

/** The dashboard list of the cards within reach: newest first, searched, filtered and paged on the server. */
export async function listProfilesForAdmin({ cards }: Reach, query: AdminProfileQuery) {
  const where = conditions(query);
  const [counts] = await db
    .select({
      shown: sql<number>`count(*) filter (where ${where ?? sql`true`})::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(profiles)
    .leftJoin(invitations, eq(invitations.profileId, profiles.id))
    .where(cards);
  const shown = counts?.shown ?? 0;
  const pageCount = Math.max(1, Math.ceil(shown / ADMIN_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const rows = await db
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      username: profiles.username,
      ...CARD_DETAIL_COLUMNS,
      manager: sql<string | null>`(select m.username from ${profiles} m where m.id = ${profiles.managerId})`,
      companyBrandId: profiles.companyBrandId,
      profilePhoto: profiles.profilePhoto,
      viewCount: profiles.viewCount,
      claimed: sql<boolean>`${profiles.userId} is not null`,
      createdAt: profiles.createdAt,
      brandName: brands.name,
      brandColor: brands.primaryColor,
      invitedAt: invitations.invitedAt,
      remindersSent: sql<number>`coalesce(${invitations.remindersSent}, 0)::int`,
      invitationsStopped: sql<boolean>`${invitations.stoppedAt} is not null`,
      oldUsernames: sql<string[]>`coalesce((select json_agg(r.username order by r.created_at desc)
        from ${usernameRedirects} r where r.profile_id = ${profiles.id} and r.expires_at > now()), '[]'::json)`,
      deactivated: sql<boolean>`${profiles.deactivatedAt} is not null`,
      updatedAt: profiles.updatedAt,
      accountEmail: users.email,
      accountRole: users.role,
      secondFactor: sql<boolean>`coalesce(${users.twoFactorEnabled}, false)
        or exists (select 1 from ${passkeys} k where k.user_id = ${profiles.userId})`,
      administers: administeredBrandsColumn(profiles.userId),
    })
    .from(profiles)
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .leftJoin(invitations, eq(invitations.profileId, profiles.id))
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(and(cards, where))
    .orderBy(desc(profiles.createdAt), desc(profiles.id))
    .limit(ADMIN_PAGE_SIZE)
    .offset((page - 1) * ADMIN_PAGE_SIZE);
  return {
    rows: rows.map(({ accountEmail, accountRole, administers, ...row }) => ({
      ...row,
      administers: brandIdsOf(administers),
      // An administrator's role, and whether ADMIN_EMAILS gives it (then no one here can take it).
      admin: accountEmail ? roleOf({ email: accountEmail, role: accountRole }) === "admin" : false,
      adminByConfiguration: isAdminEmail(accountEmail),
    })),
    shown,
    total: counts?.total ?? 0,
    page,
    pageCount,
  };
}

/** Every profile within reach, newest first, for the dashboard CSV. */
export async function allProfilesForExport({ cards }: Reach) {
  return db
    .select({
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: profiles.email,
      username: profiles.username,
      brandName: brands.name,
      claimed: sql<boolean>`${profiles.userId} is not null`,
      viewCount: profiles.viewCount,
      createdAt: profiles.createdAt,
    })
    .from(profiles)
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(cards)
    .orderBy(desc(profiles.createdAt), desc(profiles.id));
}
