import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type * as fontkit from "fontkit";
import type { FontFamily } from "~/lib/settings";

/**
 * Text for images drawn on the server, set in the site's own font: glyphs are
 * turned into outlines, so the image shows the chosen font whatever fonts the
 * machine has, and every line is measured before it is placed.
 */

type Weight = 400 | 700;

/** Where each family's files are: the same self-hosted files the pages use. */
const SOURCES: Record<FontFamily, { pkg: string; prefix: string; variable: boolean }> = {
  Inter: { pkg: "@fontsource-variable/inter", prefix: "inter", variable: true },
  Roboto: { pkg: "@fontsource-variable/roboto", prefix: "roboto", variable: true },
  "Open Sans": { pkg: "@fontsource-variable/open-sans", prefix: "open-sans", variable: true },
  Montserrat: { pkg: "@fontsource-variable/montserrat", prefix: "montserrat", variable: true },
  Lato: { pkg: "@fontsource/lato", prefix: "lato", variable: false },
  Poppins: { pkg: "@fontsource/poppins", prefix: "poppins", variable: false },
};

/** Scripts tried first, in this order; the family's other subsets follow. */
const FIRST_SUBSETS = ["latin", "latin-ext"];

/** A family at one weight: its per-script files, tried in order for each character. */
type Face = fontkit.Font[];

const require = createRequire(import.meta.url);
const faces = new Map<string, Promise<Face>>();

/** The font libraries, loaded with the first image that needs them rather than at every start. */
let fontLibraries: Promise<[typeof import("fontkit"), typeof import("wawoff2")]> | undefined;

async function loadFace(family: FontFamily, weight: Weight): Promise<Face> {
  fontLibraries ??= Promise.all([import("fontkit"), import("wawoff2").then((module) => module.default)]);
  const [fontkitLibrary, wawoff2] = await fontLibraries;
  const source = SOURCES[family] ?? SOURCES.Inter;
  const dir = path.dirname(
    require.resolve(`${source.pkg}/files/${source.prefix}-latin-${source.variable ? "wght" : weight}-normal.woff2`),
  );
  const style = source.variable ? "wght" : String(weight);
  const pattern = new RegExp(`^${source.prefix}-(.+)-${style}-normal\\.woff2$`);
  const subsets = (await fs.readdir(dir))
    .map((file) => pattern.exec(file)?.[1])
    .filter((subset): subset is string => subset !== undefined)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return Promise.all(
    subsets.map(async (subset) => {
      const woff2 = await fs.readFile(path.join(dir, `${source.prefix}-${subset}-${style}-normal.woff2`));
      const font = fontkitLibrary.create(Buffer.from(await wawoff2.decompress(woff2))) as fontkit.Font;
      return source.variable ? font.getVariation({ wght: weight }) : font;
    }),
  );
}

function rank(subset: string) {
  const index = FIRST_SUBSETS.indexOf(subset);
  return index === -1 ? FIRST_SUBSETS.length : index;
}

/** The family at a weight, read once per process. */
export function face(family: FontFamily, weight: Weight): Promise<Face> {
  const key = `${family}:${weight}`;
  let loading = faces.get(key);
  if (!loading) {
    loading = loadFace(family, weight);
    loading.catch(() => faces.delete(key));
    faces.set(key, loading);
  }
  return loading;
}

/**
 * Characters none of the family's files hold (Chinese, Arabic, emoji…) are
 * left to the renderer's own fonts; they are counted this wide (in ems), more
 * than such glyphs take, so a line holding them still fits.
 */
const FOREIGN_EM = 1.25;

/** A stretch of text drawn with one font file, or by the renderer (`font` null). */
type Run = { text: string; font: fontkit.Font | null };

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

function fontFor(grapheme: string, faceFonts: Face): fontkit.Font | null {
  const codePoints = Array.from(grapheme, (c) => c.codePointAt(0) ?? 0);
  return faceFonts.find((font) => codePoints.every((cp) => font.hasGlyphForCodePoint(cp))) ?? null;
}

function runsOf(text: string, faceFonts: Face): Run[] {
  const runs: Run[] = [];
  for (const grapheme of graphemes(text)) {
    // A space belongs to the run it is in, whichever file holds it.
    const font = /^\s+$/.test(grapheme) && runs.length > 0 ? runs.at(-1)!.font : fontFor(grapheme, faceFonts);
    const last = runs.at(-1);
    if (last && last.font === font) last.text += grapheme;
    else runs.push({ text: grapheme, font });
  }
  return runs;
}

function runWidth(run: Run, size: number): number {
  if (!run.font) return graphemes(run.text).length * size * FOREIGN_EM;
  return (run.font.layout(run.text).advanceWidth * size) / run.font.unitsPerEm;
}

/** Text set in one face and size. */
export type TextStyle = { face: Face; size: number };

/** The width `text` takes in this style. */
export function measure(text: string, style: TextStyle): number {
  return runsOf(text, style.face).reduce((sum, run) => sum + runWidth(run, style.size), 0);
}

/** The longest start of `parts` (whole graphemes or words) that fits, joined, with `tail` appended. */
function longestFit(parts: string[], tail: string, width: number, style: TextStyle): number {
  let low = 0;
  let high = parts.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (measure(parts.slice(0, mid).join("") + tail, style) <= width) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * `text` broken into at most `maxLines` lines no wider than `width`: at
 * spaces where it can, inside a word that is longer than a line, and with an
 * ellipsis ending the last line when the text does not fit.
 */
export function wrap(text: string, style: TextStyle, width: number, maxLines: number): string[] {
  // A line may end after a space or a hyphen.
  const words = text
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[ \-\u2010\u2013])/);
  const lines: string[] = [];
  let rest = words.filter((word) => word !== "");
  while (rest.length > 0 && lines.length < maxLines) {
    const count = longestFit(rest, "", width, style);
    if (count > 0) {
      lines.push(rest.slice(0, count).join(""));
      rest = rest.slice(count);
      continue;
    }
    // One word wider than a line: break it where it stops fitting.
    const letters = graphemes(rest[0]!);
    const fit = Math.max(1, longestFit(letters, "", width, style));
    lines.push(letters.slice(0, fit).join(""));
    rest = [letters.slice(fit).join(""), ...rest.slice(1)].filter((word) => word !== "");
  }
  if (rest.length > 0) {
    const letters = graphemes(`${lines.pop() ?? ""}${rest.join("")}`);
    const fit = longestFit(letters, "…", width, style);
    lines.push(`${letters.slice(0, fit).join("").trimEnd()}…`);
  }
  return lines.map((line) => line.trimEnd());
}

/** SVG for one line whose baseline starts at (x, y), filled with `fill`. */
export function lineSvg(
  text: string,
  style: TextStyle,
  x: number,
  y: number,
  fill: string,
  toXml: (s: string) => string,
) {
  const outlines: string[] = [];
  const foreign: string[] = [];
  let pen = x;
  for (const run of runsOf(text, style.face)) {
    if (!run.font) {
      foreign.push(
        `<text x="${pen.toFixed(1)}" y="${y}" font-size="${style.size}" font-family="sans-serif">${toXml(run.text)}</text>`,
      );
      pen += runWidth(run, style.size);
      continue;
    }
    const scale = style.size / run.font.unitsPerEm;
    const laid = run.font.layout(run.text);
    laid.glyphs.forEach((glyph, i) => {
      const position = laid.positions[i]!;
      const gx = pen + position.xOffset * scale;
      const gy = y - position.yOffset * scale;
      outlines.push(glyph.path.transform(scale, 0, 0, -scale, gx, gy).toSVG());
      pen += position.xAdvance * scale;
    });
  }
  return `<g fill="${fill}">${outlines.length ? `<path d="${outlines.join("")}"/>` : ""}${foreign.join("")}</g>`;
}
