/**
 * What every form's action answers when it cannot do what was asked: one
 * shape for the whole application (docs/decisions/008-layout-and-tools.md).
 * A success never answers with data: it redirects and leaves a toast.
 */
export type FieldErrors = Record<string, string[] | undefined>;

export type ActionFailure = {
  /** A message about the whole form (shown above the fields). */
  formError?: string;
  /** Messages per field, shown under each field. */
  fieldErrors?: FieldErrors;
  /** What the person typed, so a page rendered without JavaScript keeps it. */
  values?: Record<string, string>;
};
