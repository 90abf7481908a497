/** Relative luminance of a #rrggbb colour (WCAG 2). */
function luminance(hex: string): number {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return 0;
  const value = Number.parseInt(match[1]!, 16);
  const channel = (shift: number) => {
    const c = ((value >> shift) & 0xff) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
}

function contrast(a: number, b: number) {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** White or near-black, whichever reads better on the given background. */
export function readableTextOn(background: string): "#ffffff" | "#0f172a" {
  const bg = luminance(background);
  return contrast(bg, 1) >= contrast(bg, luminance("#0f172a")) ? "#ffffff" : "#0f172a";
}

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
