import { eq, type SQL, sql } from "drizzle-orm";
import { can } from "~/lib/permissions";
import type { Actor } from "../platform/actor";
import { profiles } from "../platform/db/schema";

/**
 * The one place that decides whose profiles an actor may change: any of them
 * with the `:any` permission, their own with `:own`, none otherwise. Every
 * query that reads a profile to change it is filtered by this, so a profile
 * that is not the actor's looks exactly like one that does not exist.
 */
export function changeableProfiles(actor: Actor, action: "update" | "delete"): SQL {
  if (action === "update") {
    if (can(actor.role, "update:profile:any")) return sql`true`;
    if (can(actor.role, "update:profile:own")) return eq(profiles.userId, actor.user.id);
  }
  if (action === "delete" && can(actor.role, "delete:profile:any")) return sql`true`;
  return sql`false`;
}
