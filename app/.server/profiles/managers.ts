import { and, asc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { fullName } from "~/lib/names";
import { db, type Queryable, rowsOf } from "../platform/db/client";
import { profiles } from "../platform/db/schema";
import { ValidationError } from "../platform/errors";
import { hasForbiddenCharacters } from "../platform/validation";

/**
 * Who reports to whom. A manager is named by an administrator (by username or
 * email), an import's manager column or SCIM's manager attribute, and checked
 * here for all of them: an active card, not the person themselves, and never
 * a cycle (someone who already reports to the person, directly or through
 * others).
 */

export const MANAGER_MESSAGES = {
  unknown: "No card has this username or email: enter the manager's username or email address",
  unknownAmong: "None of your brands' active cards has this username: enter the manager's username",
  deactivated: "This person's card is deactivated: choose an active colleague as manager",
  self: "A person cannot be their own manager",
  cycle: (name: string) => `${name} already reports to this person: choose someone higher up`,
} as const;

/** Whether a typed manager could be a username or an address at all. */
export function isManagerName(name: string): boolean {
  return name.length <= 254 && !hasForbiddenCharacters(name);
}

/**
 * The id of the manager `text` names for the card `profileId` (null for a new
 * card), or null when `text` is empty; a ValidationError on `manager` otherwise.
 * `among` narrows who may be named (a brand administrator's people): then only a
 * username names them, and every refusal reads the same, so that the answer says
 * nothing of other brands' addresses or cards.
 */
export async function resolveManager(tx: Queryable, text: string | null, profileId: string | null, among?: SQL) {
  const wanted = text?.trim().replace(/^@/, "").toLowerCase();
  if (!wanted) return null;
  // No username or address is this long or holds control characters (an import's cells are raw).
  if (!isManagerName(wanted)) throw new ValidationError({ manager: [MANAGER_MESSAGES.unknown] });
  const [manager] = await tx
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      deactivatedAt: profiles.deactivatedAt,
    })
    .from(profiles)
    .where(
      among
        ? and(sql`lower(${profiles.username}) = ${wanted}`, isNull(profiles.deactivatedAt), among)
        : sql`lower(${profiles.username}) = ${wanted} or lower(${profiles.email}) = ${wanted}`,
    )
    .limit(1);
  if (!manager)
    throw new ValidationError({ manager: [among ? MANAGER_MESSAGES.unknownAmong : MANAGER_MESSAGES.unknown] });
  if (manager.deactivatedAt) throw new ValidationError({ manager: [MANAGER_MESSAGES.deactivated] });
  if (profileId === null) return manager.id;
  if (manager.id === profileId) throw new ValidationError({ manager: [MANAGER_MESSAGES.self] });
  // Walk up from the chosen manager: meeting the person means the chain would close.
  const chain = rowsOf(
    await tx.execute(sql`
      with recursive up(id, manager_id, depth) as (
        select id, manager_id, 0 from profiles where id = ${manager.id}
        union all
        select p.id, p.manager_id, up.depth + 1 from profiles p join up on p.id = up.manager_id
        where up.depth < 1000
      )
      select 1 as found from up where manager_id = ${profileId} limit 1`),
  );
  if (chain.length > 0) throw new ValidationError({ manager: [MANAGER_MESSAGES.cycle(fullName(manager))] });
  return manager.id;
}

/** Two managers' usernames (null for none), for the audit log's "old → new". */
export async function managerNames(tx: Queryable, before: string | null, after: string | null) {
  const ids = [before, after].filter((id): id is string => id !== null);
  const rows = ids.length
    ? await tx.select({ id: profiles.id, username: profiles.username }).from(profiles).where(inArray(profiles.id, ids))
    : [];
  const name = (id: string | null) => {
    const username = rows.find((row) => row.id === id)?.username;
    return username ? `@${username}` : null;
  };
  return [name(before), name(after)] as [string | null, string | null];
}

const PERSON = {
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  username: profiles.username,
  title: profiles.title,
};

/** At most this many direct reports are listed on a card. */
const MAX_REPORTS = 50;

/** Who a card's person reports to and who reports to them, active cards only: for signed-in colleagues. */
export async function reportingLines(profileId: string, managerId: string | null) {
  const [manager] = managerId
    ? await db
        .select(PERSON)
        .from(profiles)
        .where(and(eq(profiles.id, managerId), isNull(profiles.deactivatedAt)))
    : [];
  const reports = await db
    .select(PERSON)
    .from(profiles)
    .where(and(eq(profiles.managerId, profileId), isNull(profiles.deactivatedAt)))
    .orderBy(asc(profiles.firstName), asc(profiles.lastName))
    .limit(MAX_REPORTS);
  return { manager: manager ?? null, reports };
}
