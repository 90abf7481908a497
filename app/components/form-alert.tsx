import { useEffect, useRef } from "react";
import type { ActionFailure } from "~/lib/action-result";
import { fieldId } from "./forms";
import { Alert } from "./ui/alert";

/**
 * The banner above a form that failed: its own message, or a summary of every
 * field that needs attention, each entry a link to its field. After a failed
 * submit it takes the focus and scrolls into view, so a person on a phone sees
 * that something went wrong (the fields may be far above the Save button).
 * `onFieldLink` lets a form show a field first (Settings opens its tab).
 * Renders nothing before a failure.
 */
export function FormAlert({
  failure,
  nothingDone,
  onFieldLink,
}: {
  failure: ActionFailure | undefined;
  nothingDone: string;
  onFieldLink?: (name: string) => void;
}) {
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!failure || (!failure.formError && !failure.fieldErrors)) return;
    const element = summary.current;
    if (!element) return;
    element.focus({ preventScroll: true });
    element.scrollIntoView({ block: "center" });
  }, [failure]);

  if (failure?.formError) {
    return (
      <div ref={summary} tabIndex={-1} className="outline-none">
        <Alert tone="error">{failure.formError}</Alert>
      </div>
    );
  }
  // In the order of the form (the order its values were sent in).
  const order = Object.keys(failure?.values ?? {});
  const position = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const entries = Object.entries(failure?.fieldErrors ?? {})
    .filter((entry): entry is [string, string[]] => (entry[1]?.length ?? 0) > 0)
    .sort(([a], [b]) => position(a) - position(b));
  if (!failure?.fieldErrors) return null;
  return (
    <div ref={summary} tabIndex={-1} className="outline-none" data-testid="error-summary">
      <Alert tone="error">
        <p className="font-medium">Some fields need your attention. {nothingDone}</p>
        {entries.length ? (
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {entries.map(([name, messages]) => (
              <li key={name}>
                <a
                  href={`#${fieldId(name)}`}
                  className="underline underline-offset-2"
                  onClick={(event) => {
                    const target = document.getElementById(fieldId(name) ?? "");
                    onFieldLink?.(name);
                    if (!target) return;
                    event.preventDefault();
                    // After a tab switch the field is shown on the next frame.
                    requestAnimationFrame(() => {
                      target.scrollIntoView({ block: "center" });
                      target.focus();
                    });
                  }}
                >
                  {messages[0]}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </Alert>
    </div>
  );
}
