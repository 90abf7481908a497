import { sql } from "drizzle-orm";
import { isbot } from "isbot";
import { db } from "../platform/db/client";
import { databaseErrorLine } from "../platform/db/errors";
import { outsideRequest } from "../platform/db/request-scope";
import { cardSaves } from "../platform/db/schema";
import type { Visit } from "./views";

/**
 * Contact files saved and wallet passes added, counted per card and day for
 * the owner's figures. A QR rush saves one card hundreds of times a minute, so
 * saves are added up here and written a batch at a time, one row per card and
 * day; a crash loses at most the last second's, which no figure misses.
 */
export type SaveKind = "contact" | "wallet";

const FLUSH_AFTER_MS = 1_000;
/** Distinct card, day and kind keys waiting at most; past it a save is not counted. */
const MAX_WAITING = 50_000;

const waiting = new Map<string, number>();
let timer: ReturnType<typeof setTimeout> | undefined;

/** Counts a save of a card, unless its owner or a bot asked for it. */
export function countSave(options: {
  kind: SaveKind;
  profileId: string;
  visit: Visit;
  ownerUserId: string | null;
  viewerUserId: string | null;
}) {
  const { kind, profileId, visit } = options;
  if (visit.prefetch || isbot(visit.userAgent)) return;
  if (kind === "contact" && options.viewerUserId && options.viewerUserId === options.ownerUserId) return;
  const key = `${profileId} ${new Date().toISOString().slice(0, 10)} ${kind}`;
  if (!waiting.has(key) && waiting.size >= MAX_WAITING) return;
  waiting.set(key, (waiting.get(key) ?? 0) + 1);
  if (!timer) {
    timer = outsideRequest(() =>
      setTimeout(() => {
        timer = undefined;
        flushSaves().catch((error: unknown) =>
          console.error(`[saves] saves of cards could not be written: ${databaseErrorLine(error)}`),
        );
      }, FLUSH_AFTER_MS),
    );
    timer.unref();
  }
}

/** Writes the saves counted so far; a clean stop calls it before the database closes. */
export async function flushSaves(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  if (waiting.size === 0) return;
  const rows = [...waiting].map(([key, count]) => {
    const [profile_id, day, kind] = key.split(" ") as [string, string, SaveKind];
    return { profile_id, day, kind, count };
  });
  waiting.clear();
  // A card deleted meanwhile has no row to add to: its saves go with it.
  await db.execute(sql`
    insert into ${cardSaves} (profile_id, day, kind, count)
    select v.profile_id::uuid, v.day::date, v.kind, v.count
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(profile_id text, day text, kind text, count int)
    where exists (select 1 from profiles where profiles.id = v.profile_id::uuid)
    on conflict (profile_id, day, kind) do update set count = ${cardSaves.count} + excluded.count`);
}
