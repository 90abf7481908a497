import type { CSSProperties } from "react";
import { brandPalette, paletteStyle } from "~/lib/color";
import { NO_BRAND_COLOR } from "~/lib/settings";

type BrandColors = { primaryColor: string; secondaryColor: string };

/** A brand chip: a dot in the brand's colour beside its name, the dot seen in both themes. */
export function BrandBadge({ brand }: { brand: { name: string; primaryColor: string } | null }) {
  if (!brand) return null;
  const palette = brandPalette(brand.primaryColor || NO_BRAND_COLOR, brand.primaryColor || NO_BRAND_COLOR);
  return (
    <span className="inline-flex max-w-full min-w-0 items-center gap-1.5 rounded-full border border-slate-200 bg-white px-2.5 py-0.5 text-xs font-medium text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200">
      <span
        aria-hidden
        data-testid="brand-dot"
        className="brand-scope size-2 rounded-full bg-brand-dot"
        style={{ "--l-dot": palette.light.dot, "--d-dot": palette.dark.dot } as CSSProperties}
      />
      <span className="truncate whitespace-nowrap" title={brand.name}>
        {brand.name}
      </span>
    </span>
  );
}

/** Inline style for a brand gradient exactly as chosen (falls back to the site's colours). */
export function brandGradientStyle(brand: BrandColors | null) {
  return brand ? ({ "--from": brand.primaryColor, "--to": brand.secondaryColor } as CSSProperties) : undefined;
}

/**
 * Makes everything inside an element wear the brand: banner, buttons, icon
 * tiles, initials and links take the brand's readable colours (app/lib/color.ts).
 * Without a brand the element keeps the site's colours.
 */
export function brandScope(brand: BrandColors | null): { className?: string; style?: CSSProperties } {
  if (!brand) return {};
  return {
    className: "brand-scope",
    style: paletteStyle(brandPalette(brand.primaryColor, brand.secondaryColor)) as CSSProperties,
  };
}
