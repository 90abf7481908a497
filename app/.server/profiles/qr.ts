import { createHash } from "node:crypto";
import QRCode from "qrcode";
import sharp from "sharp";
import { env } from "../platform/env";
import { imageWork } from "../platform/image-work";

/** The absolute address of a card (from PUBLIC_URL). */
export function cardUrl(username: string): string {
  return `${env.PUBLIC_URL}/profile/${encodeURIComponent(username)}`;
}

/** What a QR code encodes: the card, marked as a QR visit so scans can be told apart. */
export function qrTargetUrl(username: string): string {
  return `${cardUrl(username)}?src=qr`;
}

export type QrOptions = {
  errorCorrectionLevel: "M" | "H";
  width: number;
  margin: number;
  dark?: string;
};

/** The card's code is M / 256 px / margin 2; the mobile page's, shown on screens across a room, H / 400 px / margin 3. */
export const CARD_QR: QrOptions = { errorCorrectionLevel: "M", width: 256, margin: 2 };
export const MOBILE_QR: QrOptions = { errorCorrectionLevel: "H", width: 400, margin: 3 };

/** Bumped whenever the drawing changes, so that browsers' copies (by ETag) are replaced. */
const QR_REVISION = 2;

function qrcodeOptions(options: QrOptions, withColour: boolean) {
  return {
    errorCorrectionLevel: options.errorCorrectionLevel,
    width: options.width,
    margin: options.margin,
    ...(withColour && options.dark ? { color: { dark: options.dark, light: "#ffffffff" } } : {}),
  };
}

/**
 * Encoded codes, keyed by everything they depend on (text, colours, size), so
 * a card scanned by a room full of phones is encoded once. Entries are
 * promises: requests that arrive while one is being made share it. Bounded:
 * the least recently used code leaves first (docs/decisions/013-performance.md).
 */
const MAX_CACHED = 500;
const cache = new Map<string, Promise<Buffer | string>>();

function cached<T extends Buffer | string>(key: string, make: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit as Promise<T>;
  }
  const made = make();
  cache.set(key, made);
  made.catch(() => cache.delete(key));
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  return made;
}

function keyOf(kind: "svg" | "png", text: string, options: QrOptions) {
  return JSON.stringify([
    QR_REVISION,
    kind,
    text,
    options.errorCorrectionLevel,
    options.width,
    options.margin,
    options.dark ?? "",
  ]);
}

/** A strong validator of the PNG for `text` and `options`, known without encoding it. */
export function qrPngEtag(text: string, options: QrOptions, extra = ""): string {
  const digest = createHash("sha256")
    .update(`${keyOf("png", text, options)}\n${extra}`)
    .digest("base64url")
    .slice(0, 22);
  return `"qr-${digest}"`;
}

/** An inline SVG; if the colour options fail it is retried without them, so a card always has a code. */
export function qrSvg(text: string, options: QrOptions): Promise<string> {
  return cached(keyOf("svg", text, options), async () => {
    try {
      return await QRCode.toString(text, { ...qrcodeOptions(options, true), type: "svg" });
    } catch {
      return QRCode.toString(text, { ...qrcodeOptions(options, false), type: "svg" });
    }
  });
}

/** `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` as RGBA bytes; anything else is black. */
function rgba(colour: string | undefined): [number, number, number, number] {
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(colour ?? "")?.[1];
  if (!hex) return [0, 0, 0, 255];
  const full = hex.length <= 4 ? [...hex].map((digit) => digit + digit).join("") : hex;
  const bytes = (full.length === 6 ? `${full}ff` : full).match(/../g)!.map((pair) => Number.parseInt(pair, 16));
  return bytes as [number, number, number, number];
}

/**
 * The code as a PNG `options.width` pixels wide. Only the module matrix is
 * worked out here (about a millisecond); scaling and PNG encoding run on
 * sharp's worker threads, so no request waits behind another's image.
 */
async function encodePng(text: string, options: QrOptions): Promise<Buffer> {
  const code = QRCode.create(text, { errorCorrectionLevel: options.errorCorrectionLevel });
  const { size, data } = code.modules;
  const side = size + options.margin * 2;
  const dark = rgba(options.dark);
  const pixels = Buffer.alloc(side * side * 4, 255);
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      if (!data[row * size + column]) continue;
      pixels.set(dark, ((row + options.margin) * side + column + options.margin) * 4);
    }
  }
  return imageWork(() =>
    sharp(pixels, { raw: { width: side, height: side, channels: 4 } })
      .resize(options.width, options.width, { kernel: "nearest" })
      .png({ palette: true, colours: 2, effort: 1, compressionLevel: 9 })
      .toBuffer(),
  );
}

/** The code as a PNG, encoded once per text, colours and size while it stays in the cache. */
export function qrPng(text: string, options: QrOptions): Promise<Buffer> {
  return cached(keyOf("png", text, options), () => encodePng(text, options));
}
