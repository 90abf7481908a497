// A card's views as the database holds them: the count on the card and the
// rows behind it, which must agree, for the tests that count views across
// processes and restarts.
import { eq, sql } from "drizzle-orm";
import { db } from "../../app/.server/platform/db/client";
import { profiles } from "../../app/.server/platform/db/schema";

export async function storedViews(profileId: string) {
  const [row] = await db
    .select({
      viewCount: profiles.viewCount,
      views: sql<number>`(select count(*)::int from profile_views where profile_id = ${profileId})`,
    })
    .from(profiles)
    .where(eq(profiles.id, profileId));
  return row;
}
