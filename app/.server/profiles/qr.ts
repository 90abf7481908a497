import QRCode from "qrcode";
import { env } from "../env";

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

function qrcodeOptions(options: QrOptions, withColour: boolean) {
  return {
    errorCorrectionLevel: options.errorCorrectionLevel,
    width: options.width,
    margin: options.margin,
    ...(withColour && options.dark ? { color: { dark: options.dark, light: "#ffffffff" } } : {}),
  };
}

/** An inline SVG; if the colour options fail it is retried without them, so a card always has a code. */
export async function qrSvg(text: string, options: QrOptions): Promise<string> {
  try {
    return await QRCode.toString(text, { ...qrcodeOptions(options, true), type: "svg" });
  } catch {
    return QRCode.toString(text, { ...qrcodeOptions(options, false), type: "svg" });
  }
}

export async function qrPng(text: string, options: QrOptions): Promise<Buffer> {
  try {
    return await QRCode.toBuffer(text, { ...qrcodeOptions(options, true), type: "png" });
  } catch {
    return QRCode.toBuffer(text, { ...qrcodeOptions(options, false), type: "png" });
  }
}
