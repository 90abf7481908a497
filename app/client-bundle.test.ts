import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FONT_FAMILIES, FONT_STACKS } from "./lib/settings";

/**
 * Checks the browser build (`react-router build`, which `npm run test:all` runs first):
 * only what the browser uses may reach it.
 */
const ASSETS = path.resolve(import.meta.dirname, "../build/client/assets");

function assets(extension: string) {
  if (!fs.existsSync(ASSETS)) {
    throw new Error(`No browser build at ${ASSETS}: run \`npx react-router build\` first (npm run test:all does).`);
  }
  return fs
    .readdirSync(ASSETS)
    .filter((name) => name.endsWith(extension))
    .map((name) => ({ name, text: fs.readFileSync(path.join(ASSETS, name), "utf8") }));
}

function fontFaceFamilies(css: string) {
  return [...css.matchAll(/@font-face\s*{[^}]*?font-family:\s*["']?([^;"'}]+)/g)].map((match) => match[1]!.trim());
}

describe("the browser build", () => {
  it("carries no schema library: validation happens on the server only", () => {
    const scripts = assets(".js");
    expect(scripts.length).toBeGreaterThan(10);
    const withZod = scripts.filter(({ text }) => text.includes("$ZodError") || text.includes("ZodError"));
    expect(withZod.map(({ name }) => name)).toEqual([]);
  });

  it("keeps every font's @font-face rules out of the stylesheet each page loads", () => {
    const shared = assets(".css").filter(({ name }) => !FONT_FAMILIES.some((font) => name.startsWith(fileStem(font))));
    expect(shared.length).toBeGreaterThan(0);
    for (const { name, text } of shared)
      expect({ name, families: fontFaceFamilies(text) }).toEqual({ name, families: [] });
  });

  it("gives each font family a stylesheet with that family's faces only", () => {
    const css = assets(".css");
    for (const font of FONT_FAMILIES) {
      const own = css.filter(({ name }) => name.startsWith(`${fileStem(font)}-`));
      expect(own, font).toHaveLength(1);
      const families = new Set(fontFaceFamilies(own[0]!.text));
      expect([...families], font).toEqual([FONT_STACKS[font].replaceAll('"', "")]);
    }
  });
});

/** `Open Sans` → `open-sans`, the name of its stylesheet in app/fonts/. */
function fileStem(font: string) {
  return font.toLowerCase().replaceAll(" ", "-");
}
