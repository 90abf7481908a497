import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { face, lineSvg, measure, visualRuns, wrap } from "./og-text";

describe("text set for the preview image", () => {
  it("breaks at spaces and hyphens, inside a word only when it is longer than a line, and ends a cut text with an ellipsis", async () => {
    const style = { face: await face("Inter", 700), size: 64 };
    const width = 600;
    const lines = wrap(
      "Maximiliana-Bartholomea Featherstonehaugh-Wolfeschlegelsteinhausenbergerdorff",
      style,
      width,
      2,
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe("Maximiliana-");
    expect(lines[1]).toMatch(/…$/);
    for (const line of lines) expect(measure(line, style)).toBeLessThanOrEqual(width);

    const word = wrap("x".repeat(200), style, width, 2);
    expect(word).toHaveLength(2);
    for (const line of word) expect(measure(line, style)).toBeLessThanOrEqual(width);

    expect(wrap("Zoë Laurent", style, width, 2)).toEqual(["Zoë Laurent"]);
  });

  it("keeps letters no font file holds (Chinese, emoji) within the width too", async () => {
    const style = { face: await face("Poppins", 400), size: 36 };
    const lines = wrap(
      "山田太郎山田太郎山田太郎山田太郎山田太郎山田太郎 🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀",
      style,
      400,
      2,
    );
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(measure(line, style)).toBeLessThanOrEqual(400);
  });
});

describe("every script a card may hold", () => {
  const samples = {
    "Simplified Chinese": "高级产品经理 王小明",
    "Traditional Chinese": "資深軟體工程師 陳志豪",
    Japanese: "山田 太郎 プロダクトマネージャー",
    Korean: "김민준 수석 엔지니어",
    Arabic: "محمد العلي — مدير المبيعات",
    Hebrew: "דוד כהן, מנהל מוצר",
    Cyrillic: "Анна Петрова, руководитель отдела",
    Greek: "Γιώργος Παπαδόπουλος",
  };

  for (const [script, text] of Object.entries(samples)) {
    it(`draws ${script} as letters from a font file, in a family made only for Latin`, async () => {
      for (const weight of [400, 700] as const) {
        const style = { face: await face("Lato", weight, text), size: 36 };
        const runs = visualRuns(text, style.face);
        for (const run of runs) {
          expect(run.font, `no font holds "${run.text}"`).not.toBeNull();
          const glyphs = run.font!.layout(run.text).glyphs;
          expect(glyphs.filter((glyph) => glyph.id === 0).length, `"${run.text}" would show empty boxes`).toBe(0);
        }
        expect(lineSvg(text, style, 0, 40, "#000", (s) => s)).not.toContain("<text");
      }
    });
  }

  it("breaks Chinese and Japanese between any two characters but never starts a line with a closing bracket or stop", async () => {
    const text = "シニアプロダクトマネージャー（東京本社）";
    const style = { face: await face("Lato", 400, text), size: 36 };
    for (let width = 200; width <= 700; width += 9) {
      const lines = wrap(text, style, width, 3);
      for (const line of lines) expect(measure(line, style)).toBeLessThanOrEqual(width);
      for (const line of lines.slice(1)) expect(line, `at ${width} px`).not.toMatch(/^[）。、」]/u);
    }
  });

  it("reads at most sixteen fallback files for one text, however many a text is made to need", async () => {
    const listed = JSON.parse(
      fs.readFileSync(createRequire(import.meta.url).resolve("@fontsource-variable/noto-sans-sc/unicode.json"), "utf8"),
    ) as Record<string, string>;
    // The first character of each of sixty files of the Chinese family.
    const text = Object.values(listed)
      .slice(0, 60)
      .map((ranges) => String.fromCodePoint(Number.parseInt(/U\+([0-9a-f]+)/i.exec(ranges)![1]!, 16)))
      .join("");
    const own = (await face("Inter", 400)).length;
    expect((await face("Inter", 400, text)).length - own).toBeLessThanOrEqual(16);
  });

  it("takes Chinese characters from the Japanese family when the text has kana, and from the Korean one when it has hangul", async () => {
    const familyOf = async (text: string, character: string) => {
      const fonts = await face("Inter", 400, text);
      return visualRuns(character, fonts)[0]?.font?.familyName;
    };
    expect(await familyOf("山田 プロダクト", "山")).toMatch(/JP/);
    expect(await familyOf("金 민준", "金")).toMatch(/KR/);
    expect(await familyOf("山田太郎", "山")).toMatch(/SC/);
  });

  it("orders Arabic and Hebrew right to left, keeps a Latin word inside them left to right, and mirrors brackets", async () => {
    const arabic = "مدير CEO في";
    const runs = visualRuns(arabic, await face("Inter", 400, arabic));
    expect(runs.map((run) => [run.text, run.rtl])).toEqual([
      ["في", true],
      [" ", true],
      ["CEO", false],
      ["مدير ", true],
    ]);

    const latinFirst = "Dr. דוד כהן";
    expect(visualRuns(latinFirst, await face("Inter", 400, latinFirst)).map((run) => [run.text, run.rtl])).toEqual([
      ["Dr. ", false],
      ["דוד כהן", true],
    ]);

    const bracketed = "מנהל (ראשי)";
    const mirrored = visualRuns(bracketed, await face("Inter", 400, bracketed));
    // Runs left to right, each in reading order: the brackets swap, so each still opens toward the words it holds.
    expect(mirrored.map((run) => run.text)).toEqual(["(", "ראשי", ")", "מנהל "]);
  });
});
