import { and, eq, gt, lt, notLike, or, sql } from "drizzle-orm";
import { db, type Queryable } from "./db/client";
import { throttleEvents } from "./db/schema";
import { keyedHash } from "./tokens";

const ONE_HOUR_MS = 60 * 60 * 1000;
const ONE_DAY_MS = 24 * ONE_HOUR_MS;

/** How many account mails of one kind an address receives in an hour, whoever asks. */
export const MAILS_PER_ADDRESS_PER_HOUR = 3;

export type MailKind = "sign-up" | "reset" | "card-email" | "test-invitation" | "lead-card";

async function countSince(key: string, since: Date, q: Queryable = db) {
  const [row] = await q
    .select({ n: sql<number>`count(*)::int`, last: sql<Date | null>`max(${throttleEvents.createdAt})` })
    .from(throttleEvents)
    .where(and(eq(throttleEvents.key, key), gt(throttleEvents.createdAt, since)));
  return { count: row?.n ?? 0, last: row?.last ? new Date(row.last) : null };
}

async function record(key: string, q: Queryable = db) {
  await q.insert(throttleEvents).values({ key });
  // Old events of every key go now and then, so the table stays small.
  if (Math.random() < 0.02) {
    // Renames are counted over a month (profiles/previous-usernames.ts); everything else over a day at most.
    await q
      .delete(throttleEvents)
      .where(
        or(
          and(lt(throttleEvents.createdAt, new Date(Date.now() - ONE_DAY_MS)), notLike(throttleEvents.key, "rename:%")),
          lt(throttleEvents.createdAt, new Date(Date.now() - 31 * ONE_DAY_MS)),
        ),
      );
  }
}

/**
 * Takes one of an address's hourly account mails of `kind`. Every request
 * counts, whether or not an account exists, so the answer says nothing about
 * accounts. False when the address has had its share this hour.
 */
export async function takeMailQuota(kind: MailKind, address: string, within?: Queryable): Promise<boolean> {
  const key = keyedHash(`mail-${kind}`, address);
  // The count and the mail it allows are one step: requests sent side by side cannot all pass.
  const take = async (q: Queryable) => {
    await q.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    const { count } = await countSince(key, new Date(Date.now() - ONE_HOUR_MS), q);
    if (count >= MAILS_PER_ADDRESS_PER_HOUR) return false;
    await record(key, q);
    return true;
  };
  return within ? take(within) : db.transaction(take);
}

/** Failed sign-ins an account may have before each next attempt waits. */
export const FREE_SIGN_IN_FAILURES = 5;
const FIRST_DELAY_MS = 1_000;
/** The longest an account waits between attempts; a password reset lifts the wait at once. */
export const MAX_SIGN_IN_DELAY_MS = 15 * 60 * 1000;

/**
 * Sign-in throttling per account, beside the per-address limit: after five
 * failures within a day, each next attempt waits a delay that doubles (1 s,
 * 2 s, 4 s…) up to 15 minutes after the last failure. A stranger can slow an
 * owner for at most that long after their last guess, and a completed
 * password reset or a successful sign-in clears the count.
 */
export async function signInWait(email: string, device: string | null = null): Promise<number> {
  // A browser this account signed in from before has failures of its own: guesses from
  // elsewhere, however many, never keep the owner out of their own browser.
  const key = device ? keyedHash("sign-in-device", device) : keyedHash("sign-in", email);
  const { count, last } = await countSince(key, new Date(Date.now() - ONE_DAY_MS));
  if (count < FREE_SIGN_IN_FAILURES || !last) return 0;
  const delay = Math.min(FIRST_DELAY_MS * 2 ** (count - FREE_SIGN_IN_FAILURES), MAX_SIGN_IN_DELAY_MS);
  return Math.max(0, last.getTime() + delay - Date.now());
}

export async function recordSignInFailure(email: string, device: string | null = null) {
  await record(device ? keyedHash("sign-in-device", device) : keyedHash("sign-in", email));
}

export async function clearSignInFailures(email: string, device: string | null = null) {
  await db.delete(throttleEvents).where(eq(throttleEvents.key, keyedHash("sign-in", email)));
  if (device) await db.delete(throttleEvents).where(eq(throttleEvents.key, keyedHash("sign-in-device", device)));
}

/** "3 minutes", "40 seconds": how long to wait, for a message. */
export function waitText(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} ${seconds === 1 ? "second" : "seconds"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}
