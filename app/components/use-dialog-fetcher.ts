import { type FormEvent, useContext, useId, useRef } from "react";
import { type SubmitTarget, UNSAFE_FetchersContext, useFetcher, useRevalidator } from "react-router";
import type { ActionFailure } from "~/lib/action-result";

type SubmitOptions = Parameters<ReturnType<typeof useFetcher>["submit"]>[1];

/**
 * The fetcher behind a form in a dialog. A failed save answers with an
 * `ActionFailure`, which the dialog shows; a successful one redirects with a
 * toast and brings no new data: then the fetcher is reset and `onDone`
 * closes the dialog. Every dialog that saves works this way, sending through
 * `submit` (or its form's `onSubmit`).
 *
 * Whether an answer came is read from the router's own record of answers, once
 * the submission has ended, and not from what a render shows: React renders
 * router updates as transitions, and a page refresh under way (another
 * person's change) can hold back the render of "submitting" until the answer
 * is in, so that the answer looked like it was already there before the save
 * and a failed save closed the dialog.
 */
export function useDialogFetcher(onDone: () => void) {
  const key = useId();
  const fetcher = useFetcher<ActionFailure>({ key });
  // Written by the router the moment an answer arrives, before any render shows it.
  const answers = useContext(UNSAFE_FetchersContext);
  const revalidator = useRevalidator();
  const latest = useRef({ onDone, revalidate: revalidator.revalidate });
  latest.current = { onDone, revalidate: revalidator.revalidate };
  const sending = useRef(false);
  const busy = fetcher.state !== "idle";

  async function submit(target: SubmitTarget, options?: SubmitOptions) {
    // Repeat submits are ignored while one is on its way.
    if (sending.current) return;
    sending.current = true;
    const before = answers.get(key);
    try {
      await fetcher.submit(target, options);
    } finally {
      sending.current = false;
    }
    // A failure is a new answer, which the dialog shows; a redirect leaves the last one as it was.
    if (answers.get(key) !== before) return;
    fetcher.reset();
    latest.current.onDone();
    // A load of the page that starts while the save is on its way makes React Router drop the
    // save's redirect, and with it the toast, which then waits unseen in its cookie: one more
    // load hands it over (a toast already shown is not shown again).
    void latest.current.revalidate().catch(() => {});
  }

  /** For `<fetcher.Form onSubmit>`: sends the form (with the button that sent it) through `submit`. */
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const form = event.currentTarget;
    void submit(submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : form, {
      method: form.method === "get" ? "get" : "post",
    });
  }

  return { fetcher, busy, failure: fetcher.data ?? undefined, submit, onSubmit };
}
