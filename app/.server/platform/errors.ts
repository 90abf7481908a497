import type { FieldErrors } from "~/lib/action-result";

/**
 * What a domain function throws when it cannot do what was asked. Domain code
 * never builds a response: the route maps these to a status and a message
 * (see `responses.ts`).
 */
class DomainError extends Error {
  override name = "DomainError";
}

/** The record does not exist, or is not the actor's: both read the same. */
export class NotFoundError extends DomainError {
  override name = "NotFoundError";
  constructor(readonly entity: string) {
    super(`${entity} not found`);
  }
}

/** The actor may not do this at all. */
export class ForbiddenError extends DomainError {
  override name = "ForbiddenError";
  constructor() {
    super("You do not have permission to do that.");
  }
}

/** The input breaks a rule; the messages say what to change, per field. */
export class ValidationError extends DomainError {
  override name = "ValidationError";
  constructor(readonly fieldErrors: FieldErrors) {
    super("The input is not valid");
  }
}

/**
 * Someone else saved the record after this form was opened: saving now would
 * silently undo their change, so nothing is saved and the person is told.
 */
export class StaleEditError extends DomainError {
  override name = "StaleEditError";
  constructor(what: "brand" | "card") {
    super(
      `Someone else changed this ${what} while you were editing it, so nothing was saved. Open it again to see their change, then make yours.`,
    );
  }
}

/** The input collides with what is stored (a username or address already taken). */
export class ConflictError extends DomainError {
  override name = "ConflictError";
  constructor(readonly fieldErrors: FieldErrors) {
    super("The input conflicts with a stored record");
  }
}

/** The file store failed: not the person's fault, and nothing they can fix by changing the file. */
export class StorageError extends DomainError {
  override name = "StorageError";
}

/**
 * An identity provider (a SCIM connection) asked for a write that is Namecard's
 * alone: an administrator's card, or an address an account holds with a card
 * of its own (docs/decisions/032-scim-provisioning.md).
 */
export class ProviderRefusedError extends DomainError {
  override name = "ProviderRefusedError";
}
