import type { ActionFailure } from "~/lib/action-result";
import { Alert } from "./ui/alert";

/**
 * The banner above a form that failed: its own message, or a pointer to the
 * fields that need attention. Renders nothing before a failure.
 */
export function FormAlert({ failure, nothingDone }: { failure: ActionFailure | undefined; nothingDone: string }) {
  if (failure?.formError) return <Alert tone="error">{failure.formError}</Alert>;
  if (failure?.fieldErrors) {
    return <Alert tone="error">Some fields need your attention. {nothingDone}</Alert>;
  }
  return null;
}
