import { z } from "zod";
import { StaleEditError } from "./errors";

/**
 * Edit forms carry the version of the record they were opened on (its
 * `updated_at`, in a hidden `version` field), and a save is refused when the
 * record changed since: two administrators editing one brand or card never
 * undo each other's change without a word. A form without the field (an older
 * page, a script) saves as before.
 */
export const EditVersionSchema = z.object({
  version: z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const at = new Date(value);
      if (Number.isNaN(at.getTime())) {
        context.addIssue({ code: "custom", message: "Open the form again, then make your change." });
        return z.NEVER;
      }
      return at;
    }),
});

/** Throws a `StaleEditError` when the record's `updated_at` is not the version the form was opened on. */
export function assertUnchangedSince(version: Date | undefined, updatedAt: Date, what: "brand" | "card") {
  if (version && version.getTime() !== updatedAt.getTime()) throw new StaleEditError(what);
}
