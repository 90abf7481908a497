import { describe, expect, it } from "vitest";
import { brandPalette, contrastRatio } from "./color";

const SURFACES = { light: { card: "#ffffff", chip: "#ffffff" }, dark: { card: "#0f172a", chip: "#1e293b" } };

/** Every 17th step of each channel: dark, light, saturated, grey and near-black colours. */
const COLORS = (() => {
  const steps = [0, 0x11, 0x44, 0x77, 0x99, 0xbb, 0xdd, 0xff];
  const list: string[] = [];
  for (const r of steps)
    for (const g of steps)
      for (const b of steps) list.push(`#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`);
  return list;
})();

describe("brandPalette", () => {
  it("gives every brand colour readable text and visible shapes in light and dark", () => {
    for (const color of COLORS) {
      const palette = brandPalette(color, COLORS[(COLORS.indexOf(color) * 7) % COLORS.length]!);
      for (const theme of ["light", "dark"] as const) {
        const p = palette[theme];
        const where = `${color} in ${theme}`;
        expect(contrastRatio(p.onSolid, p.solid), `${where}: button text`).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(p.solid, SURFACES[theme].card), `${where}: button on card`).toBeGreaterThanOrEqual(3);
        expect(contrastRatio(p.ink, SURFACES[theme].card), `${where}: ink on card`).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(p.ink, p.tint), `${where}: ink on tile`).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(p.dot, SURFACES[theme].chip), `${where}: dot on chip`).toBeGreaterThanOrEqual(3);
      }
      expect(contrastRatio(palette.onBanner, palette.from), `${color}: banner start`).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(palette.onBanner, palette.to), `${color}: banner end`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("keeps a brand colour that already reads well exactly as chosen", () => {
    const palette = brandPalette("#2563eb", "#1e40af");
    expect(palette.light.solid).toBe("#2563eb");
    expect(palette.light.onSolid).toBe("#ffffff");
    expect(palette.from).toBe("#2563eb");
  });

  it("lightens a near-black brand in dark mode and puts dark text on amber", () => {
    const onyx = brandPalette("#111111", "#1f2937");
    expect(contrastRatio(onyx.dark.dot, "#1e293b")).toBeGreaterThanOrEqual(3);
    expect(onyx.light.solid).toBe("#111111");
    const amber = brandPalette("#fbbf24", "#f59e0b");
    expect(amber.onBanner).toBe("#0f172a");
    expect(amber.dark.onSolid).toBe("#0f172a");
  });
});
