import { viewsWord } from "~/lib/views";

/** "view" or "views" after a count, marked so a page cached for reuse can follow its count (lib/views.ts). */
export function ViewsWord({ count, className }: { count: number; className?: string }) {
  return (
    <span className={className} data-views-word="">
      {viewsWord(count)}
    </span>
  );
}
