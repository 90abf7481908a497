import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import bidiFactory from "bidi-js";
import type * as fontkit from "fontkit";
import type { FontFamily } from "~/lib/settings";
import { decompressWoff2 } from "./woff2";

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

/** The font library, loaded with the first image that needs it rather than at every start. */
let fontLibrary: Promise<typeof import("fontkit")> | undefined;

/** One font file, decompressed and at the weight asked for (a variable file is set to it). */
async function readFont(file: string, weight: Weight, variable: boolean): Promise<fontkit.Font> {
  fontLibrary ??= import("fontkit");
  const font = (await fontLibrary).create(await decompressWoff2(await fs.readFile(file))) as fontkit.Font;
  return variable ? font.getVariation({ wght: weight }) : font;
}

async function loadFace(family: FontFamily, weight: Weight): Promise<Face> {
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
    subsets.map((subset) =>
      readFont(path.join(dir, `${source.prefix}-${subset}-${style}-normal.woff2`), weight, source.variable),
    ),
  );
}

function rank(subset: string) {
  const index = FIRST_SUBSETS.indexOf(subset);
  return index === -1 ? FIRST_SUBSETS.length : index;
}

/** The family's own files at a weight, read once per process. */
function ownFace(family: FontFamily, weight: Weight): Promise<Face> {
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
 * The family at a weight, able to draw every character of `texts`: a
 * character the family's files lack is taken from a fallback family that has
 * it (Inter for Cyrillic, Greek and Vietnamese; Noto Sans for Arabic, Hebrew,
 * Chinese, Japanese and Korean). Only the fallback files these texts need are
 * read: a CJK family comes in about a hundred small files.
 */
export async function face(family: FontFamily, weight: Weight, ...texts: (string | null | undefined)[]): Promise<Face> {
  const own = await ownFace(family, weight);
  const missing = new Set<number>();
  const text = texts.filter(Boolean).join(" ");
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (!/\s/u.test(character) && !own.some((font) => font.hasGlyphForCodePoint(codePoint))) missing.add(codePoint);
  }
  if (missing.size === 0) return own;
  const extra: fontkit.Font[] = [];
  for (const codePoint of missing) {
    if (extra.some((font) => font.hasGlyphForCodePoint(codePoint))) continue;
    // Reading a file holds this thread (decision 016 has how long): a text made to need many of
    // them (rare characters chosen from every file) gets this many, the rest left to the renderer.
    if (extra.length >= MAX_FALLBACK_FILES_PER_TEXT) break;
    const font = await fallbackFont(codePoint, fallbackOrder(family, text), weight);
    if (font && !extra.includes(font)) extra.push(font);
  }
  return [...own, ...extra];
}

/** The fallback files one text may need: a real Chinese title of twenty characters needs five to ten. */
const MAX_FALLBACK_FILES_PER_TEXT = 16;

/** A fallback family: its file prefix, its `unicode.json`, and the characters each of its files holds. */
type Fallback = { prefix: string; unicodeJson: string; subsets?: { name: string; ranges: [number, number][] }[] };

const fallback = (prefix: string, unicodeJson: string): Fallback => ({ prefix, unicodeJson });
const INTER = fallback("inter", require.resolve("@fontsource-variable/inter/unicode.json"));
const ARABIC = fallback("noto-sans-arabic", require.resolve("@fontsource-variable/noto-sans-arabic/unicode.json"));
const HEBREW = fallback("noto-sans-hebrew", require.resolve("@fontsource-variable/noto-sans-hebrew/unicode.json"));
const CJK = {
  sc: fallback("noto-sans-sc", require.resolve("@fontsource-variable/noto-sans-sc/unicode.json")),
  tc: fallback("noto-sans-tc", require.resolve("@fontsource-variable/noto-sans-tc/unicode.json")),
  jp: fallback("noto-sans-jp", require.resolve("@fontsource-variable/noto-sans-jp/unicode.json")),
  kr: fallback("noto-sans-kr", require.resolve("@fontsource-variable/noto-sans-kr/unicode.json")),
};

/**
 * The fallbacks in the order they are tried. Chinese characters are shared by
 * Chinese, Japanese and Korean but drawn a little differently in each: a text
 * with kana takes them from the Japanese family, one with hangul from the
 * Korean, any other from Simplified Chinese first.
 */
function fallbackOrder(family: FontFamily, text: string): Fallback[] {
  const cjk = /[\p{sc=Hiragana}\p{sc=Katakana}]/u.test(text)
    ? [CJK.jp, CJK.sc, CJK.tc, CJK.kr]
    : /\p{sc=Hangul}/u.test(text)
      ? [CJK.kr, CJK.sc, CJK.tc, CJK.jp]
      : [CJK.sc, CJK.tc, CJK.jp, CJK.kr];
  return [...(family === "Inter" ? [] : [INTER]), ARABIC, HEBREW, ...cjk];
}

/** Each file's characters, from the `unicode.json` the font package ships (its CSS `unicode-range`s). */
async function subsetsOf(source: Fallback): Promise<NonNullable<Fallback["subsets"]>> {
  if (source.subsets) return source.subsets;
  const listed = JSON.parse(await fs.readFile(source.unicodeJson, "utf8")) as Record<string, string>;
  source.subsets = Object.entries(listed).map(([key, ranges]) => ({
    name: key.replace(/^\[|\]$/g, ""),
    ranges: ranges.split(",").map((range): [number, number] => {
      const [from, to] = range.trim().replace(/^U\+/i, "").split("-");
      const start = Number.parseInt(from ?? "", 16);
      return [start, to ? Number.parseInt(to, 16) : start];
    }),
  }));
  return source.subsets;
}

/** Fallback files read so far, the most recently used last; a few dozen are kept. */
const fallbackFiles = new Map<string, Promise<fontkit.Font | null>>();
const FALLBACK_FILES_KEPT = 48;

async function fallbackFont(codePoint: number, order: Fallback[], weight: Weight): Promise<fontkit.Font | null> {
  for (const source of order) {
    const subset = (await subsetsOf(source)).find((candidate) =>
      candidate.ranges.some(([from, to]) => codePoint >= from && codePoint <= to),
    );
    if (!subset) continue;
    const key = `${source.prefix}:${subset.name}:${weight}`;
    let loading = fallbackFiles.get(key);
    if (loading) fallbackFiles.delete(key);
    else {
      const file = path.join(
        path.dirname(source.unicodeJson),
        "files",
        `${source.prefix}-${subset.name}-wght-normal.woff2`,
      );
      loading = readFont(file, weight, true).catch((error: Error) => {
        console.warn(`[og] the font file ${key} could not be read:`, error.message);
        fallbackFiles.delete(key);
        return null;
      });
    }
    fallbackFiles.set(key, loading);
    if (fallbackFiles.size > FALLBACK_FILES_KEPT) fallbackFiles.delete(fallbackFiles.keys().next().value!);
    const font = await loading;
    if (font?.hasGlyphForCodePoint(codePoint)) return font;
  }
  return null;
}

/**
 * Characters no file holds, its fallbacks' included (emoji, scripts none of
 * them covers), are left to the renderer's own fonts; they are counted this wide (in ems), more
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
    let fit = Math.max(1, longestFit(letters, "", width, style));
    // A line never starts with closing punctuation (a bracket, a comma, a full stop): the letter before it goes down too.
    while (fit > 1 && fit < letters.length && /^[\p{Pe}\p{Pf}\p{Po}]/u.test(letters[fit]!)) fit--;
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

/** A run in the order it is seen, left to right, and whether it reads right to left. */
type VisualRun = Run & { rtl: boolean };

let bidiLibrary: ReturnType<typeof bidiFactory> | undefined;

/**
 * `text`'s runs in the order they are drawn: the Unicode bidirectional
 * algorithm gives each character a level (odd reads right to left), runs of
 * one font and level are cut, and the runs are reversed level by level (rule
 * L2), so an Arabic or Hebrew name, or one inside a Latin title, reads the
 * right way. Brackets in right-to-left runs are mirrored.
 */
export function visualRuns(text: string, faceFonts: Face): VisualRun[] {
  bidiLibrary ??= bidiFactory();
  const embedding = bidiLibrary.getEmbeddingLevels(text);
  const mirrored = bidiLibrary.getMirroredCharactersMap(text, embedding.levels);
  const runs: (VisualRun & { level: number })[] = [];
  let index = 0;
  for (const grapheme of graphemes(text)) {
    const level = embedding.levels[index] ?? 0;
    const shown = mirrored.get(index) ?? grapheme;
    const last = runs.at(-1);
    const font = /^\s+$/.test(grapheme) && last?.level === level ? last.font : fontFor(shown, faceFonts);
    if (last && last.font === font && last.level === level) last.text += shown;
    else runs.push({ text: shown, font, level, rtl: level % 2 === 1 });
    index += grapheme.length;
  }
  const levels = runs.map((run) => run.level);
  const lowestOdd = Math.min(...levels.map((level) => level | 1));
  for (let level = Math.max(...levels); level >= lowestOdd; level--) {
    for (let start = 0; start < runs.length; start++) {
      if (runs[start]!.level < level) continue;
      let end = start;
      while (end + 1 < runs.length && runs[end + 1]!.level >= level) end++;
      runs.splice(start, end - start + 1, ...runs.slice(start, end + 1).reverse());
      start = end;
    }
  }
  return runs.map(({ text: runText, font, rtl }) => ({ text: runText, font, rtl }));
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
  for (const run of visualRuns(text, style.face)) {
    if (!run.font) {
      // Given in reading order: the renderer orders a right-to-left script itself.
      foreign.push(
        `<text x="${pen.toFixed(1)}" y="${y}" font-size="${style.size}" font-family="sans-serif">${toXml(run.text)}</text>`,
      );
      pen += runWidth(run, style.size);
      continue;
    }
    const scale = style.size / run.font.unitsPerEm;
    // The font shapes the run (Arabic letters join) and lays it out in the run's direction.
    const laid = run.font.layout(run.text, [], undefined, undefined, run.rtl ? "rtl" : "ltr");
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
