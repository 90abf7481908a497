import { NO_BRAND_COLOR } from "~/lib/settings";

/** A brand chip: a dot in the brand's primary colour beside its name, readable in both themes. */
export function BrandBadge({ brand }: { brand: { name: string; primaryColor: string } | null }) {
  if (!brand) return null;
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full border border-slate-200 bg-white px-2.5 py-0.5 text-xs font-medium text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200">
      <span
        aria-hidden
        className="size-2 rounded-full"
        style={{ backgroundColor: brand.primaryColor || NO_BRAND_COLOR }}
      />
      {brand.name}
    </span>
  );
}

/** Inline style for a brand gradient (falls back to the site's colours). */
export function brandGradientStyle(brand: { primaryColor: string; secondaryColor: string } | null) {
  return brand ? ({ "--from": brand.primaryColor, "--to": brand.secondaryColor } as React.CSSProperties) : undefined;
}
