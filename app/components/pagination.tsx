import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { cn } from "~/lib/cn";

/** Previous / Page n of m / Next, keeping every other search parameter. */
export function Pagination({
  page,
  pageCount,
  path = "",
  className,
}: {
  page: number;
  pageCount: number;
  path?: string;
  className?: string;
}) {
  const [params] = useSearchParams();
  if (pageCount <= 1) return null;
  const link = (target: number) => {
    const next = new URLSearchParams(params);
    if (target <= 1) next.delete("page");
    else next.set("page", String(target));
    return `${path}?${next}`;
  };
  const style = "inline-flex items-center gap-1 font-medium text-brand-ink hover:underline";
  return (
    <nav aria-label="Pages" className={cn("flex items-center justify-between gap-4 text-sm", className)}>
      {page > 1 ? (
        <Link to={link(page - 1)} className={style}>
          <ChevronLeft aria-hidden className="size-4" /> Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-500 dark:text-slate-400">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={link(page + 1)} className={style}>
          Next <ChevronRight aria-hidden className="size-4" />
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
