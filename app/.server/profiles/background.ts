import sharp from "sharp";
import { brandPalette } from "~/lib/color";
import { fullName } from "~/lib/names";
import { imageWork } from "../platform/image-work";
import { getSiteSettings } from "../platform/site-settings";
import { cardForViewer, getCardByUsername } from "./get-card";
import { familyOf, readLogo, uploadedKey, xml } from "./og-image";
import { face, lineSvg, measure, wrap } from "./og-text";
import { brandQrLogo, qrPng, qrTargetUrl } from "./qr";

/**
 * A video-call background (docs/decisions/033-card-everywhere.md): the brand's
 * colours, the person's name, title and company in the lower left, and a QR
 * code of their card in the upper right, large enough to scan from someone
 * else's screen. The middle, where the person sits, stays empty. It is drawn
 * the right way round: the call shows it unmirrored to everyone else.
 */

const BACKGROUND_SIZES = { 1920: [1920, 1080], 1280: [1280, 720] } as const;
export type BackgroundSize = keyof typeof BACKGROUND_SIZES;

const W = 1920;
const H = 1080;
const MARGIN = 96;
/** The QR code's side: about 40 pixels a module, so it still scans in a call's small tile. */
const QR_SIDE = 340;
const QR_PAD = 20;
/** Text stays in the outer third: people sit in the middle of the picture. */
const TEXT_WIDTH = 620;

/** The background of the active card with this username, as PNG; null when there is no such card. */
export async function cardBackground(username: string, size: BackgroundSize): Promise<Buffer | null> {
  const card = await getCardByUsername(username);
  if (!card) return null;
  const [shown, site] = await Promise.all([cardForViewer(card, null), getSiteSettings()]);
  const palette = card.brand
    ? brandPalette(card.brand.primaryColor, card.brand.secondaryColor)
    : brandPalette(site.primaryColor, site.secondaryColor);
  const family = familyOf(site);
  const name = fullName(card);
  const company = card.brand?.name ?? site.companyName;
  const [bold, regular, logo, qr] = await Promise.all([
    face(family, 700, name, company),
    face(family, 400, shown.title),
    readLogo(uploadedKey(card.brand ? card.brand.logo : site.primaryLogo)),
    brandQrLogo(card.brand).then((qrLogo) =>
      qrPng(qrTargetUrl(card.username), { errorCorrectionLevel: "M", width: QR_SIDE, margin: 0, logo: qrLogo }),
    ),
  ]);
  const ink = palette.onBanner;
  const nameStyle = { face: bold, size: 64 };
  const roleStyle = { face: regular, size: 36 };
  const companyStyle = { face: bold, size: 32 };
  const nameLines = wrap(name, nameStyle, TEXT_WIDTH, 2);
  const roleLines = shown.title ? wrap(shown.title, roleStyle, TEXT_WIDTH, 2) : [];
  const lines: { text: string; style: typeof nameStyle; height: number }[] = [
    ...nameLines.map((text) => ({ text, style: nameStyle, height: 76 })),
    ...roleLines.map((text) => ({ text, style: roleStyle, height: 48 })),
    ...(company ? [{ text: company, style: companyStyle, height: 48 }] : []),
  ];
  const textHeight = lines.reduce((sum, line) => sum + line.height, 0);
  let y = H - MARGIN - textHeight;
  const text = lines.map((line) => {
    const svg = lineSvg(line.text, line.style, MARGIN, Math.round(y + line.height * 0.78), ink, xml);
    y += line.height;
    return svg;
  });
  const accent = `<rect x="${MARGIN}" y="${H - MARGIN - textHeight - 28}" width="${Math.min(160, measure(nameLines[0] ?? "", nameStyle))}" height="8" rx="4" fill="${ink}" fill-opacity="0.85"/>`;
  const qrX = W - MARGIN - QR_SIDE - QR_PAD;
  const qrY = MARGIN;
  const caption = lineSvg(
    "Scan for my card",
    { face: regular, size: 26 },
    qrX,
    qrY + QR_SIDE + 2 * QR_PAD + 40,
    ink,
    xml,
  );
  const logoSvg = logo
    ? `<rect x="${MARGIN}" y="${MARGIN}" width="${logo.width + 24}" height="${logo.height + 24}" rx="14" fill="#ffffff"/>
       <image href="data:image/png;base64,${logo.png.toString("base64")}" x="${MARGIN + 12}" y="${MARGIN + 12}" width="${logo.width}" height="${logo.height}"/>`
    : "";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.from}"/><stop offset="1" stop-color="${palette.to}"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  ${logoSvg}
  <rect x="${qrX}" y="${qrY}" width="${QR_SIDE + 2 * QR_PAD}" height="${QR_SIDE + 2 * QR_PAD}" rx="24" fill="#ffffff"/>
  <image href="data:image/png;base64,${qr.toString("base64")}" x="${qrX + QR_PAD}" y="${qrY + QR_PAD}" width="${QR_SIDE}" height="${QR_SIDE}"/>
  ${caption}
  ${accent}
  ${text.join("\n  ")}
</svg>`;
  const [width, height] = BACKGROUND_SIZES[size];
  return imageWork(() =>
    sharp(Buffer.from(svg)).resize(width, height, { kernel: "lanczos3" }).png({ compressionLevel: 9 }).toBuffer(),
  );
}
