// WCAG 2 contrast of colours as the browser computed them, written apart from
// the app's own colour code so the tests check it rather than repeat it.
import type { Locator } from "@playwright/test";

type Rgb = [number, number, number];

/** `rgb(…)`, `rgba(…)` with full alpha, or `#rrggbb`. */
function parseColor(value: string): Rgb {
  const text = value.trim();
  const hex = /^#([0-9a-f]{6})$/i.exec(text);
  if (hex) {
    const n = Number.parseInt(hex[1]!, 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  const rgb = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+))?\s*\)$/.exec(text);
  if (!rgb) throw new Error(`not a colour the test can read: ${value}`);
  if (rgb[4] !== undefined && Number(rgb[4]) < 1) throw new Error(`a translucent colour: ${value}`);
  return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
}

function luminance([r, g, b]: Rgb) {
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(parseColor(a)), luminance(parseColor(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * A computed colour property (or a custom property holding a colour) of the
 * element as `rgb(…)`: the browser itself converts any notation (oklch, hex)
 * by painting it on a canvas.
 */
export function styleOf(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((element, name) => {
    const value = getComputedStyle(element).getPropertyValue(name).trim();
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
    if (!context) return value;
    context.fillStyle = "#000000";
    context.fillStyle = value;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
    return a === 255 ? `rgb(${r}, ${g}, ${b})` : `rgba(${r}, ${g}, ${b}, ${(a ?? 0) / 255})`;
  }, property);
}
