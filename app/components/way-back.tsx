import { ArrowLeft } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import type { WayBack } from "~/lib/way-back";

/**
 * Whether going back leads to the page that linked here: the tab has history
 * and this page was opened from a link (a tab opened by a camera app, or a
 * typed address, has no referrer, and what precedes it is no page of theirs).
 */
function hasHistory() {
  return window.history.length > 1 && document.referrer !== "";
}

/** Read after hydration: the server cannot know. */
function useHasHistory() {
  const [has, setHas] = useState(false);
  useEffect(() => setHas(hasHistory()), []);
  return has;
}

function goBack(event: { preventDefault: () => void }) {
  if (hasHistory()) {
    event.preventDefault();
    window.history.back();
  }
}

/**
 * Back from a public card: a link to the place the server chose, which goes
 * back in history instead whenever the tab has history. With no place and no
 * history there is nothing to go back to, and nothing is shown.
 * `label` words each kind of place (`name` is the brand or company).
 */
export function WayBackLink({
  way,
  className,
  label,
}: {
  way: WayBack | null;
  className: string;
  label: (way: WayBack | null) => ReactNode;
}) {
  const history = useHasHistory();
  if (!way) {
    if (!history) return null;
    return (
      <button type="button" onClick={() => window.history.back()} className={className}>
        <ArrowLeft aria-hidden className="size-4 shrink-0" />
        {label(null)}
      </button>
    );
  }
  return (
    <a href={way.href} onClick={goBack} className={className} data-testid="way-back">
      <ArrowLeft aria-hidden className="size-4 shrink-0" />
      {/* A website is only where Back leads when the tab has no history. */}
      {label(history && way.kind === "website" ? null : way)}
    </a>
  );
}

/** The way back a card's 404 carries (app/.server/profiles/way-back.ts). */
function useNotFoundWayBack(): WayBack | null {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) return null;
  const back = (error.data as { back?: WayBack | null } | null)?.back;
  return back ?? null;
}

/** Back, as a sentence names it: to the directory, or to the brand's or company's website. */
function wayBackLabel(way: WayBack | null): string {
  if (way?.kind === "directory") return "Back to Directory";
  if (way?.kind === "website") return `Back to ${way.name}`;
  return "Back";
}

/** A top bar's "Back"; where a website is the way back, its name is read out too. */
export function shortBackLabel(way: WayBack | null): ReactNode {
  if (way?.kind !== "website") return "Back";
  return (
    <>
      Back<span className="sr-only"> to {way.name}</span>
    </>
  );
}

/** The way back on a card's "not found" page. */
export function NotFoundWayBack() {
  return <WayBackLink way={useNotFoundWayBack()} className={buttonClasses("secondary", "md")} label={wayBackLabel} />;
}
