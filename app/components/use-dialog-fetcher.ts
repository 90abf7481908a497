import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { ActionFailure } from "~/lib/action-result";

/**
 * The fetcher behind a form in a dialog. A failed save answers with an
 * `ActionFailure`, which the dialog shows; a successful one redirects with a
 * toast, which leaves the fetcher without data: then `onDone` closes the
 * dialog. Every dialog that saves works this way.
 */
export function useDialogFetcher(onDone: () => void) {
  const fetcher = useFetcher<ActionFailure>();
  const busy = fetcher.state !== "idle";
  const wasBusy = useRef(false);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (busy) {
      wasBusy.current = true;
      return;
    }
    if (!wasBusy.current) return;
    wasBusy.current = false;
    if (fetcher.data === undefined) done.current();
  }, [busy, fetcher.data]);
  return { fetcher, busy, failure: fetcher.data };
}
