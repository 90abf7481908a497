import { useT } from "~/lib/i18n/intl";

/** "view" or "views" after a count, marked so a page cached for reuse can follow its count (lib/views.ts). */
export function ViewsWord({ count, className }: { count: number; className?: string }) {
  const t = useT();
  return (
    <span className={className} data-views-word="">
      {t("card.views", { count })}
    </span>
  );
}
