import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { fullName } from "~/lib/names";
import { can } from "~/lib/permissions";
import type { JoinRuleMode } from "~/lib/settings";
import { allBrandDomains } from "../brands/domains";
import type { Actor } from "../platform/actor";
import { isAdminEmail } from "../platform/admins";
import { db, type Queryable } from "../platform/db/client";
import { profiles, siteSettings, users } from "../platform/db/schema";
import { atListedDomain, domainOf, splitDomains } from "../platform/email-domains";
import { env } from "../platform/env";
import { ForbiddenError } from "../platform/errors";
import { setCardState } from "../profiles/deactivation";

/**
 * Who may make an account (docs/decisions/024-who-can-join.md). A company
 * directory is read by everyone in it, so an address joins only when:
 * - it is an administrator's (ADMIN_EMAILS, the break-glass way in);
 * - an administrator prepared a card for it (created, imported, invited), whatever the rule;
 * - its domain is one the company lists (the default rule), or the rule lets anyone join.
 * Every way an account is made (the sign-up form, the API, its confirmation link)
 * asks `mayJoin`; an invitation is always to a prepared card.
 */
export type JoinRule = { mode: JoinRuleMode; domains: string[] };

/** The domains of the administrators' addresses: the list a new installation starts with. */
export function defaultJoinDomains(): string[] {
  return [...new Set(env.ADMIN_EMAILS.map((email) => domainOf(email)).filter((domain) => domain !== ""))];
}

/** The rule in force: the stored one, else people at the administrators' domains. */
export async function getJoinRule(queryable: Queryable = db): Promise<JoinRule> {
  const [row] = await queryable
    .select({ mode: siteSettings.joinRule, domains: siteSettings.joinDomains })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
    .limit(1);
  const listed = row?.domains === null || row?.domains === undefined ? defaultJoinDomains() : splitDomains(row.domains);
  // Every brand's domains let its people in too (brands/domains.ts).
  return { mode: row?.mode ?? "domains", domains: [...new Set([...listed, ...(await allBrandDomains(queryable))])] };
}

/** Whether the rule alone lets the address in, a prepared card aside. */
function ruleAdmits(rule: JoinRule, email: string): boolean {
  if (isAdminEmail(email)) return true;
  if (rule.mode === "anyone") return true;
  return rule.mode === "domains" && atListedDomain(email, rule.domains);
}

/** Whether an active, unclaimed card an administrator prepared waits for this address. */
async function hasPreparedCard(queryable: Queryable, email: string): Promise<boolean> {
  const [card] = await queryable
    .select({ id: profiles.id })
    .from(profiles)
    .where(
      and(
        sql`lower(${profiles.email}) = ${email.toLowerCase()}`,
        eq(profiles.selfJoined, false),
        isNull(profiles.deactivatedAt),
        // Waiting for its person: a claimed card's address (which its member may change) lets nobody else in.
        isNull(profiles.userId),
      ),
    )
    .limit(1);
  return !!card;
}

export type JoinDecision = { allowed: true } | { allowed: false; message: string };

/** Whether the address may make an account now, and if not what the form says. */
export async function mayJoin(email: string, queryable: Queryable = db): Promise<JoinDecision> {
  const rule = await getJoinRule(queryable);
  if (ruleAdmits(rule, email) || (await hasPreparedCard(queryable, email))) return { allowed: true };
  return { allowed: false, message: refusalMessage(rule) };
}

/** What someone outside the rule reads on the sign-up form. */
function refusalMessage(rule: JoinRule): string {
  if (rule.mode === "domains" && rule.domains.length > 0) {
    return `Only people with an address at ${listText(rule.domains)} can join. Sign up with your work address, or ask an administrator to invite you.`;
  }
  return "Joining is by invitation only. Ask an administrator to invite you.";
}

/** "a", "a or b", "a, b or c". */
function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

export type OutsideAccount = {
  profileId: string;
  username: string;
  name: string;
  email: string;
  joinedAt: Date;
};

/**
 * The people with an active card who joined by themselves and whom the rule
 * would not let in today: after a stricter rule, the administrator sees them
 * and may deactivate them in one step. Administrators and people whose card
 * was prepared for them are never listed.
 */
export async function accountsOutsideRule(rule?: JoinRule): Promise<OutsideAccount[]> {
  const current = rule ?? (await getJoinRule());
  if (current.mode === "anyone") return [];
  const rows = await db
    .select({
      profileId: profiles.id,
      username: profiles.username,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: users.email,
      joinedAt: users.createdAt,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(profiles.selfJoined, true), isNull(profiles.deactivatedAt), isNotNull(profiles.userId)))
    .orderBy(asc(users.createdAt));
  return rows
    .filter((row) => !ruleAdmits(current, row.email))
    .map(({ firstName, lastName, ...row }) => ({ ...row, name: fullName({ firstName, lastName }) }));
}

/**
 * Deactivates every account the rule leaves outside, each as an administrator
 * deactivating one card would (signed out at once, audited); the listed ones
 * only, so someone who joined since the list was shown is not swept along.
 */
export async function deactivateAccountsOutsideRule({
  actor,
  profileIds,
}: {
  actor: Actor;
  profileIds: readonly string[];
}): Promise<number> {
  if (!can(actor.role, "deactivate:profile:any")) throw new ForbiddenError();
  const outside = new Set((await accountsOutsideRule()).map((account) => account.profileId));
  let deactivated = 0;
  for (const profileId of profileIds) {
    if (!outside.has(profileId)) continue;
    const { changed } = await setCardState({ actor, profileId, state: "deactivated" });
    if (changed) deactivated++;
  }
  return deactivated;
}
