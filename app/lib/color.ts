/** Colour arithmetic for readable brand colours (WCAG 2 contrast). */

type Rgb = readonly [number, number, number];

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

const WHITE = "#ffffff";
/** Body text and its large text: WCAG AA. */
const TEXT_CONTRAST = 4.5;
/** The near-black the product writes text in (slate-900). */
const INK = "#0f172a";

function parse(hex: string): Rgb | null {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return null;
  const value = Number.parseInt(match[1]!, 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

/** Relative luminance of a #rrggbb colour (WCAG 2); 0 for anything else. */
function luminance(hex: string): number {
  const rgb = parse(hex);
  if (!rgb) return 0;
  const [r, g, b] = rgb.map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `from` moved `amount` (0–1) of the way to `to`. */
function mix(from: string, to: string, amount: number): string {
  const a = parse(from) ?? [0, 0, 0];
  const b = parse(to) ?? [0, 0, 0];
  return toHex([0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * amount) as unknown as Rgb);
}

/** How far (0–1) `color` must move toward `target` until `good` holds (1: all the way). */
function distance(color: string, target: string, good: (candidate: string) => boolean): number {
  for (let step = 0; step <= 50; step++) {
    if (good(mix(color, target, step / 50))) return step / 50;
  }
  return 1;
}

/** `color` moved toward `target` in small steps until `good` holds (the target itself at worst). */
function nudge(color: string, target: string, good: (candidate: string) => boolean): string {
  return mix(color, target, distance(color, target, good));
}

/**
 * White text when the colours need at most this much darkening to carry it
 * (brands are mostly drawn with white lettering), else near-black text.
 */
const WHITE_TEXT_DARKENING = 0.3;

/** The text colour for fills of these colours: white if a little darkening makes it readable. */
function textFor(...fills: string[]): string {
  const needed = Math.max(
    ...fills.map((fill) => distance(fill, "#000000", (c) => contrastRatio(c, WHITE) >= TEXT_CONTRAST)),
  );
  return needed <= WHITE_TEXT_DARKENING ? WHITE : INK;
}

/** White or near-black, whichever reads better on the given background. */
export function readableTextOn(background: string): "#ffffff" | "#0f172a" {
  return contrastRatio(background, WHITE) >= contrastRatio(background, INK) ? WHITE : INK;
}

/** Shapes that must be seen (a button's fill, a dot): WCAG 1.4.11. */
const SHAPE_CONTRAST = 3;

/** The backgrounds brand colours sit on, per theme: card, page, chip. */
const SURFACES = {
  light: { card: WHITE, page: "#f8fafc", chip: WHITE },
  dark: { card: "#0f172a", page: "#020617", chip: "#1e293b" },
} as const;

type Theme = keyof typeof SURFACES;

type ThemePalette = {
  /** A filled control (primary button, bar): seen on the card, with `onSolid` text on it. */
  solid: string;
  onSolid: string;
  /** Icons and links on the card and on `tint`. */
  ink: string;
  /** A faint wash of the brand (icon tiles). */
  tint: string;
  /** The brand dot of a chip. */
  dot: string;
};

export type BrandPalette = {
  light: ThemePalette;
  dark: ThemePalette;
  /** The banner's gradient stops and the text on them (the same in both themes). */
  from: string;
  to: string;
  onBanner: string;
};

function themePalette(primary: string, theme: Theme): ThemePalette {
  const surface = SURFACES[theme];
  // Away from the surface: darker on light, lighter on dark.
  const away = theme === "light" ? "#000000" : WHITE;
  const seen = nudge(primary, away, (c) => contrastRatio(c, surface.card) >= SHAPE_CONTRAST);
  const onSolid = textFor(seen);
  const solid = nudge(seen, onSolid === WHITE ? "#000000" : WHITE, (c) => contrastRatio(c, onSolid) >= TEXT_CONTRAST);
  const tint = mix(surface.card, primary, theme === "light" ? 0.1 : 0.18);
  const ink = nudge(primary, away, (c) =>
    [surface.card, surface.page, tint].every((bg) => contrastRatio(c, bg) >= TEXT_CONTRAST),
  );
  const dot = nudge(primary, away, (c) =>
    [surface.card, surface.chip].every((bg) => contrastRatio(c, bg) >= SHAPE_CONTRAST),
  );
  return { solid, onSolid, ink, tint, dot };
}

/**
 * Every colour a card draws from its brand's two colours, each pair readable:
 * text 4.5:1 on what it sits on, shapes 3:1 against the card, in light and dark.
 * A colour is only moved (darker or lighter) as far as needed.
 */
export function brandPalette(primary: string, secondary: string): BrandPalette {
  // A page draws a palette per card, from the few pairs its brands have: each is worked out once.
  const key = `${primary}|${secondary}`;
  let palette = palettes.get(key);
  if (!palette) {
    if (palettes.size >= MAX_PALETTES) palettes.clear();
    palette = derivePalette(primary, secondary);
    palettes.set(key, palette);
  }
  return palette;
}

const palettes = new Map<string, BrandPalette>();
const MAX_PALETTES = 500;

function derivePalette(primary: string, secondary: string): BrandPalette {
  const first = parse(primary) ? primary : "#3b82f6";
  const second = parse(secondary) ? secondary : first;
  const onBanner = textFor(first, second);
  const away = onBanner === WHITE ? "#000000" : WHITE;
  const stop = (c: string) => nudge(c, away, (candidate) => contrastRatio(candidate, onBanner) >= TEXT_CONTRAST);
  return {
    light: themePalette(first, "light"),
    dark: themePalette(first, "dark"),
    from: stop(first),
    to: stop(second),
    onBanner,
  };
}

/**
 * The CSS custom properties of a palette; `.brand-scope` (app.css) turns them
 * into the theme's colours for everything inside the element.
 */
export function paletteStyle(palette: BrandPalette): Record<string, string> {
  const vars: Record<string, string> = {
    "--from": palette.from,
    "--to": palette.to,
    "--on-banner": palette.onBanner,
  };
  for (const theme of ["light", "dark"] as const) {
    const prefix = theme === "light" ? "--l" : "--d";
    const p = palette[theme];
    vars[`${prefix}-solid`] = p.solid;
    vars[`${prefix}-on-solid`] = p.onSolid;
    vars[`${prefix}-ink`] = p.ink;
    vars[`${prefix}-tint`] = p.tint;
    vars[`${prefix}-dot`] = p.dot;
  }
  return vars;
}
