import { createHash } from "node:crypto";
import QRCode from "qrcode";
import sharp from "sharp";
import { env } from "../platform/env";
import { imageWork } from "../platform/image-work";
import { getStorage } from "../platform/storage";

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
  /** A brand's logo in the middle (brands.qr_logo): the code is then drawn with error correction H. */
  logo?: QrLogo | null;
};

/** A logo for the middle of a code: its stored file's key (what caches tell apart) and a square PNG of it. */
export type QrLogo = { key: string; png: Buffer };

/**
 * The share of the code's side the logo's white square takes. At error
 * correction H a code survives 30 % of its modules lost; a square of 22 % of
 * the side covers under 5 % of them, clear of the three finder patterns.
 */
const LOGO_SHARE = 0.22;

/** The card's code is M / 256 px / margin 2; the mobile page's, shown on screens across a room, H / 400 px / margin 3. */
export const CARD_QR: QrOptions = { errorCorrectionLevel: "M", width: 256, margin: 2 };
export const MOBILE_QR: QrOptions = { errorCorrectionLevel: "H", width: 400, margin: 3 };

/** Bumped whenever the drawing changes, so that browsers' copies (by ETag) are replaced. */
const QR_REVISION = 2;

/** The error correction a code is drawn with: H under a logo, whatever was asked. */
function levelOf(options: QrOptions): "M" | "H" {
  return options.logo ? "H" : options.errorCorrectionLevel;
}

function qrcodeOptions(options: QrOptions, withColour: boolean) {
  return {
    errorCorrectionLevel: levelOf(options),
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
    options.logo?.key ?? "",
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
    let svg: string;
    try {
      svg = await QRCode.toString(text, { ...qrcodeOptions(options, true), type: "svg" });
    } catch {
      svg = await QRCode.toString(text, { ...qrcodeOptions(options, false), type: "svg" });
    }
    return options.logo ? withSvgLogo(svg, options.logo) : svg;
  });
}

/** The logo on a white square in the middle of the SVG code, in the code's own units (its viewBox). */
function withSvgLogo(svg: string, logo: QrLogo): string {
  const side = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  if (!side) return svg;
  const box = Math.round(side * LOGO_SHARE);
  const at = (side - box) / 2;
  const pad = box * 0.1;
  const image = `<rect x="${at}" y="${at}" width="${box}" height="${box}" rx="${box * 0.15}" fill="#ffffff"/><image x="${at + pad}" y="${at + pad}" width="${box - pad * 2}" height="${box - pad * 2}" preserveAspectRatio="xMidYMid meet" href="data:image/png;base64,${logo.png.toString("base64")}"/>`;
  return svg.replace(/<\/svg>\s*$/, `${image}</svg>`);
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
  const code = QRCode.create(text, { errorCorrectionLevel: levelOf(options) });
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
  const { logo } = options;
  if (!logo) {
    return imageWork(() =>
      sharp(pixels, { raw: { width: side, height: side, channels: 4 } })
        .resize(options.width, options.width, { kernel: "nearest" })
        .png({ palette: true, colours: 2, effort: 1, compressionLevel: 9 })
        .toBuffer(),
    );
  }
  return imageWork(async () => {
    const code = await sharp(pixels, { raw: { width: side, height: side, channels: 4 } })
      .resize(options.width, options.width, { kernel: "nearest" })
      .png()
      .toBuffer();
    const box = Math.round(options.width * LOGO_SHARE);
    const inner = Math.max(1, Math.round(box * 0.8));
    const mark = await sharp(logo.png)
      .resize(inner, inner, { fit: "contain", background: { r: 255, g: 255, b: 255, alpha: 1 } })
      .flatten({ background: "#ffffff" })
      .extend({
        top: Math.floor((box - inner) / 2),
        bottom: Math.ceil((box - inner) / 2),
        left: Math.floor((box - inner) / 2),
        right: Math.ceil((box - inner) / 2),
        background: "#ffffff",
      })
      .png()
      .toBuffer();
    const at = Math.round((options.width - box) / 2);
    return sharp(code)
      .composite([{ input: mark, left: at, top: at }])
      .png({ compressionLevel: 9 })
      .toBuffer();
  });
}

/**
 * A brand's logo for its cards' codes, or null: when the brand asks for it
 * and its logo can be read. Read once per logo file while it stays cached.
 */
export async function brandQrLogo(brand: { logo: string | null; qrLogo: boolean } | null): Promise<QrLogo | null> {
  if (!brand?.qrLogo || !brand.logo) return null;
  const key = brand.logo;
  let loading = logos.get(key);
  if (!loading) {
    loading = readQrLogo(key);
    logos.set(key, loading);
    // A logo that could not be read now is tried again next time.
    void loading.then((logo) => logo ?? logos.delete(key));
    while (logos.size > MAX_CACHED) logos.delete(logos.keys().next().value as string);
  }
  return loading;
}

const logos = new Map<string, Promise<QrLogo | null>>();

async function readQrLogo(key: string): Promise<QrLogo | null> {
  try {
    const stored = await getStorage().get(key);
    if (!stored) return null;
    const png = await imageWork(() =>
      sharp(stored.body, { limitInputPixels: 40_000_000 })
        .resize(160, 160, { fit: "contain", background: { r: 255, g: 255, b: 255, alpha: 0 } })
        .png()
        .toBuffer(),
    );
    return { key, png };
  } catch (error) {
    // A logo that cannot be read leaves the code plain: it still scans.
    console.warn(`[qr] the logo ${key} could not be read:`, (error as Error).message);
    return null;
  }
}

/** The code as a PNG, encoded once per text, colours and size while it stays in the cache. */
export function qrPng(text: string, options: QrOptions): Promise<Buffer> {
  return cached(keyOf("png", text, options), () => encodePng(text, options));
}
