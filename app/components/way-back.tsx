import { ArrowLeft } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { useT } from "~/lib/i18n/intl";
import type { WayBack } from "~/lib/way-back";

/**
 * Whether going back leads to a page the visitor saw: an earlier page of this
 * app in the tab, or a page that linked here (a tab opened by a camera app,
 * or a typed address, has no referrer, and what precedes it is no page of
 * theirs). Read after hydration: the server cannot know.
 */
function useHasHistory() {
  const location = useLocation();
  const [has, setHas] = useState(false);
  useEffect(
    () => setHas(location.key !== "default" || (window.history.length > 1 && document.referrer !== "")),
    [location.key],
  );
  return has;
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
  // `data-back` lets a visitor's card page, sent without the app's JavaScript,
  // do the same with its small script (app/lib/card-script.ts).
  if (!way) {
    return (
      <button type="button" hidden={!history} onClick={() => window.history.back()} className={className} data-back="">
        <ArrowLeft aria-hidden className="size-4 shrink-0 rtl:-scale-x-100" />
        {label(null)}
      </button>
    );
  }
  return (
    <a
      href={way.href}
      onClick={(event) => {
        if (!history) return;
        event.preventDefault();
        window.history.back();
      }}
      className={className}
      data-testid="way-back"
      data-back=""
    >
      <ArrowLeft aria-hidden className="size-4 shrink-0 rtl:-scale-x-100" />
      {/* A website is only where Back leads when the tab has no history. */}
      {label(history && way.kind === "website" ? null : way)}
    </a>
  );
}

/** A top bar's "Back"; where a website is the way back, its name is read out too. */
export function shortBackLabel(way: WayBack | null): ReactNode {
  return <ShortBackLabel way={way} />;
}

function ShortBackLabel({ way }: { way: WayBack | null }) {
  const t = useT();
  if (way?.kind !== "website") return t("back.short");
  return (
    <>
      {t("back.short")}
      <span className="sr-only" data-back-place="">
        {" "}
        {t("back.toPlace", { name: way.name })}
      </span>
    </>
  );
}
