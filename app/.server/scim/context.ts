import { isRetryableConflict, isUniqueViolation } from "../platform/db/errors";
import { ProviderRefusedError } from "../platform/errors";
import { type CardWriter, writeCards } from "../profiles/card-writer";
import type { Connection } from "./connections";
import { ScimError } from "./errors";

/** A resource id as this server makes them: anything else names no resource, without a query. */
export const RESOURCE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";

/** What every SCIM operation runs as: the connection, and the base of the addresses it answers with. */
export type ScimContext = { connection: Connection; baseUrl: string };

/**
 * Runs a change as the connection, through the card writer in one
 * transaction. A collision answers 409 with `conflict`.
 */
export async function asConnection<T>(
  context: ScimContext,
  work: (cards: CardWriter) => Promise<T>,
  conflict = "A user with this userName or e-mail address exists already.",
): Promise<T> {
  const run = () =>
    writeCards({ kind: "scim", connection: context.connection }, work).catch((error: unknown) => {
      if (error instanceof ProviderRefusedError) throw new ScimError(409, error.message, "uniqueness");
      throw error;
    });
  try {
    return await run();
  } catch (error) {
    // Two requests raced (for a generated username, or into a deadlock with another writer): the work runs
    // once more, and what still collides is the provider's to know.
    if (!isUniqueViolation(error) && !isRetryableConflict(error)) throw error;
    try {
      return await run();
    } catch (again) {
      if (isUniqueViolation(again)) throw new ScimError(409, conflict, "uniqueness");
      if (isRetryableConflict(again))
        throw new ScimError(503, "Another change of the same cards ran at once. Try again.");
      throw again;
    }
  }
}
