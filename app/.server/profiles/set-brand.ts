import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { administers, decide } from "~/lib/permissions";
import { managedCards } from "../access/scope";
import type { Actor } from "../platform/actor";
import { brands, profiles } from "../platform/db/schema";
import { ForbiddenError, ValidationError } from "../platform/errors";
import { BrandChoiceSchema } from "../platform/validation";
import { cardLabel, writeCards } from "./card-writer";
import { BRAND_MOVE_MESSAGES } from "./update-profile";

const MAX_CHOSEN = 500;

/** "Set brand" on Manage Profiles: the chosen cards, and the brand they go to (empty: no brand). */
export const SetBrandSchema = z.object({
  ids: z
    .array(z.uuid({ message: "One of the chosen profiles is not valid." }))
    .min(1, "Choose at least one profile to move.")
    .max(MAX_CHOSEN, `Move at most ${MAX_CHOSEN} chosen profiles at once.`),
  brandId: BrandChoiceSchema,
});

/**
 * Moves the chosen cards into one brand, in one transaction, each on the
 * record as its own change. Cards the actor may not change are left out as
 * if they did not exist; a brand administrator moves cards only into a brand
 * they run. Answers how many cards changed brand.
 */
export async function setBrandOfCards({
  actor,
  profileIds,
  brandId,
}: {
  actor: Actor;
  profileIds: string[];
  brandId: number | null;
}): Promise<{ moved: number }> {
  if (!decide(actor, "update:profile")) throw new ForbiddenError();
  if (!administers(actor, brandId)) throw new ValidationError({ brandId: [BRAND_MOVE_MESSAGES.outOfScope] });
  const within = managedCards(actor);
  // One entry per card, shown in the audit log as one row that opens to its cards.
  return writeCards({ kind: "administrator", actor, batch: randomUUID() }, async (cards) => {
    if (brandId !== null) {
      // As the edit form: a brand switched off takes no one new.
      const [brand] = await cards.tx
        .select({ id: brands.id })
        .from(brands)
        .where(and(eq(brands.id, brandId), eq(brands.active, true)));
      if (!brand) throw new ValidationError({ brandId: ["Choose a brand from the list"] });
    }
    const chosen = await cards.tx
      .select({
        id: profiles.id,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        username: profiles.username,
        companyBrandId: profiles.companyBrandId,
      })
      .from(profiles)
      .where(and(inArray(profiles.id, profileIds), within))
      .orderBy(profiles.id)
      .for("update");
    let moved = 0;
    for (const card of chosen) {
      if (card.companyBrandId === brandId) continue;
      const changes = { companyBrandId: [card.companyBrandId, brandId] as [unknown, unknown] };
      if (
        await cards.update(
          { id: card.id, label: cardLabel(card) },
          { companyBrandId: brandId },
          { changes, where: within },
        )
      ) {
        moved += 1;
      }
    }
    return { moved };
  });
}
