import { useEffect, useRef } from "react";
import { useFetcher, useRevalidator } from "react-router";
import type { ActionFailure } from "~/lib/action-result";

/**
 * The fetcher behind a form in a dialog. A failed save answers with an
 * `ActionFailure`, which the dialog shows; a successful one redirects with a
 * toast and brings no new data: then the fetcher is reset and `onDone`
 * closes the dialog. Every dialog that saves works this way.
 */
export function useDialogFetcher(onDone: () => void) {
  const fetcher = useFetcher<ActionFailure>();
  const revalidator = useRevalidator();
  const refresh = useRef(revalidator.revalidate);
  refresh.current = revalidator.revalidate;
  const busy = fetcher.state !== "idle";
  // The data before the submission: a failure replaces it, a redirect leaves it as it was.
  const before = useRef<{ data: ActionFailure | undefined } | null>(null);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    // Only this form's own submission counts: a page revalidation can put the
    // fetcher in a loading state too, and must not read as a save.
    if (fetcher.state === "submitting") {
      before.current ??= { data: fetcher.data };
      return;
    }
    if (busy) return;
    if (!before.current) return;
    const unchanged = before.current.data === fetcher.data;
    before.current = null;
    if (unchanged) {
      fetcher.reset();
      done.current();
      // A page refresh already under way when the save started (another person's change) can
      // make React Router drop the save's redirect, and with it the toast, which then waits
      // unseen in its cookie: one more load hands it over (a toast already shown is not shown again).
      void refresh.current().catch(() => {});
    }
  }, [busy, fetcher]);
  return { fetcher, busy, failure: fetcher.data };
}
