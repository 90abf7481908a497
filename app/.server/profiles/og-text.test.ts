import { describe, expect, it } from "vitest";
import { face, measure, wrap } from "./og-text";

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
