// WCAG 2 contrast of colours as the browser computed them, written apart from
// the app's own colour code so the tests check it rather than repeat it.
import type { Locator, Page } from "@playwright/test";

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

/**
 * Every piece of text on the page that does not read (WCAG 2: 4.5:1, or 3:1 for large text) on
 * what it sits on, and every button-like link whose fill does not stand out (3:1) from its
 * surroundings, as the browser painted them: "what: colour on background (ratio)". For
 * documents drawn with inline styles only, such as mail.
 */
export function unreadableText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
    if (!context) throw new Error("no canvas to read colours with");
    const rgba = (value: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = "#000000";
      context.fillStyle = value;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data] as [number, number, number, number];
    };
    const channel = (v: number) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const luminance = ([r, g, b]: number[]) => 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    const ratio = (a: number[], b: number[]) => {
      const [la, lb] = [luminance(a), luminance(b)];
      return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    };
    /** The first opaque background behind an element: its own, an ancestor's, or the canvas's white. */
    const backgroundOf = (element: Element | null): number[] => {
      for (let at = element; at; at = at.parentElement) {
        const color = getComputedStyle(at).backgroundColor;
        const value = rgba(color);
        if (color !== "transparent" && value[3] === 255) return value;
      }
      return [255, 255, 255, 255];
    };
    const describe = (value: number[]) => `rgb(${value.slice(0, 3).join(", ")})`;
    const problems: string[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden") continue;
      const text = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? "")
        .join("")
        .trim();
      if (text) {
        const size = Number.parseFloat(style.fontSize);
        const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
        const foreground = rgba(style.color);
        const background = backgroundOf(element);
        const measured = ratio(foreground, background);
        if (measured < (large ? 3 : 4.5)) {
          problems.push(
            `"${text.slice(0, 40)}": ${describe(foreground)} on ${describe(background)} (${measured.toFixed(2)}:1)`,
          );
        }
      }
      const fill = rgba(style.backgroundColor);
      if (element.tagName === "A" && fill[3] === 255) {
        const around = backgroundOf(element.parentElement);
        const measured = ratio(fill, around);
        if (measured < 3)
          problems.push(
            `the button "${text.slice(0, 40)}": ${describe(fill)} on ${describe(around)} (${measured.toFixed(2)}:1)`,
          );
      }
    }
    return problems;
  });
}
