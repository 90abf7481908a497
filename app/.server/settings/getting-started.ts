import { sql } from "drizzle-orm";
import type { GettingStarted } from "~/lib/dashboard";
import { can } from "~/lib/permissions";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { brands, imports, invitations, siteSettings } from "../platform/db/schema";
import { ForbiddenError } from "../platform/errors";

/**
 * The first administrator's list of what a new installation needs (the company's name and
 * logo, its brands, who can join, its people), each ticked once done. It shows on the
 * dashboard of the whole site's administrators while a step is left, until they hide it (then
 * never again); a site saved before the list existed counts as set up (migration 0036).
 */
export async function gettingStarted(actor: Actor): Promise<GettingStarted | null> {
  if (!can(actor.role, "update:settings:any")) return null;
  const [state] = await db
    .select({
      finished: sql<boolean>`coalesce((select ${siteSettings.setupFinishedAt} is not null from ${siteSettings} where ${siteSettings.id} = 1), false)`,
      named: sql<boolean>`coalesce((select ${siteSettings.companyName} is not null or ${siteSettings.primaryLogo} is not null from ${siteSettings} where ${siteSettings.id} = 1), false)`,
      joining: sql<boolean>`coalesce((select ${siteSettings.joinRule} is not null from ${siteSettings} where ${siteSettings.id} = 1), false)`,
      branded: sql<boolean>`exists (select 1 from ${brands})`,
      peopled: sql<boolean>`exists (select 1 from ${invitations}) or exists (select 1 from ${imports})`,
    })
    .from(sql`(select 1) as one`);
  if (!state || state.finished) return null;
  const steps = { company: state.named, brands: state.branded, joining: state.joining, people: state.peopled };
  if (Object.values(steps).every(Boolean)) return null;
  return { steps };
}

/** Hides the getting-started list for good. */
export async function finishGettingStarted(actor: Actor) {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  const now = new Date();
  await db
    .insert(siteSettings)
    .values({ id: 1, setupFinishedAt: now })
    .onConflictDoUpdate({ target: siteSettings.id, set: { setupFinishedAt: now } });
}
