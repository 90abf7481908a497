import { and, eq } from "drizzle-orm";
import { brandPalette, HEX_COLOR } from "~/lib/color";
import { DEFAULT_LOCALE, directionOf, type Locale } from "~/lib/i18n/locales";
import { mediaUrl } from "~/lib/media";
import { DEFAULT_SETTINGS } from "~/lib/settings";
import { db } from "./db/client";
import { brands } from "./db/schema";
import { env } from "./env";
import { escapeHtml, type MailMessage } from "./mail";
import { getSiteSettings, storedImageKey } from "./site-settings";

/** Who a mail comes from, as its header shows: a brand, or the company when the card has none. */
export type MailSender = { name: string; logoUrl: string | null; color: string };

/** The sender of mail about a card of `brandId`: that brand's name, logo and colour while it is active, else the company's. */
export async function mailSender(brandId: number | null = null): Promise<MailSender> {
  const site = await getSiteSettings();
  const [brand] = brandId
    ? await db
        .select({ name: brands.name, logo: brands.logo, primaryColor: brands.primaryColor })
        .from(brands)
        .where(and(eq(brands.id, brandId), eq(brands.active, true)))
    : [];
  const logoPath = mediaUrl(brand ? storedImageKey(brand.logo) : storedImageKey(site.primaryLogo));
  const color = brand?.primaryColor ?? site.primaryColor;
  return {
    name: brand?.name ?? site.companyName,
    logoUrl: logoPath ? `${env.PUBLIC_URL}${logoPath}` : null,
    color: HEX_COLOR.test(color) ? color : DEFAULT_SETTINGS.primaryColor,
  };
}

/** Body text, and the smaller print under it: both readable on the mail's white. */
const TEXT = "#111827";
const SMALL_PRINT = "#4b5563";

export type MailContent = {
  sender: MailSender;
  /** The paragraphs, as HTML whose every value is escaped already. */
  blocks: string[];
  /** The one thing the mail asks for, drawn as a button in the sender's colour. */
  action?: { label: string; link: string };
  /** Lines in smaller print after the button, as HTML escaped already. */
  smallPrint?: string[];
  /** The mail's language (English unless said): its `lang`, and right to left for Arabic. */
  locale?: Locale;
};

/**
 * Every mail's HTML: the sender's logo (or name) over a rule in their colour, the
 * paragraphs, one button, the small print. The colours are the web app's for a
 * light surface (`brandPalette`), so a yellow or a white brand gets a button and
 * a name that read; the mail asks to be shown light, as that is what it is made for.
 */
export function mailDocument(content: MailContent): string {
  const { sender, locale = DEFAULT_LOCALE } = content;
  const dir = directionOf(locale);
  const colors = brandPalette(sender.color, sender.color).light;
  const name = escapeHtml(sender.name);
  const header = sender.logoUrl
    ? `<img src="${escapeHtml(sender.logoUrl)}" alt="${name}" height="48" style="height:48px;width:auto">`
    : `<span style="font-size:20px;font-weight:600;color:${colors.ink}">${name}</span>`;
  const button = content.action
    ? `<p><a href="${escapeHtml(content.action.link)}" style="display:inline-block;padding:10px 16px;border-radius:8px;background:${colors.solid};color:${colors.onSolid};font-weight:600;text-decoration:none">${escapeHtml(content.action.label)}</a></p>`
    : "";
  const small = (content.smallPrint ?? []).map((line) => `<p style="font-size:13px;color:${SMALL_PRINT}">${line}</p>`);
  return [
    `<!doctype html><html lang="${locale}" dir="${dir}"><head><meta charset="utf-8"><meta name="color-scheme" content="light"><meta name="supported-color-schemes" content="light"></head>`,
    `<body dir="${dir}" style="margin:0;padding:24px 16px;background:#ffffff;font-family:system-ui,sans-serif;color:${TEXT};line-height:1.5">`,
    `<div style="max-width:560px">`,
    `<div style="border-top:4px solid ${colors.dot};padding-top:12px;margin-bottom:16px">${header}</div>`,
    ...content.blocks,
    button,
    ...small,
    `</div></body></html>`,
  ]
    .filter(Boolean)
    .join("\n");
}

/** A small-print link, in the small print's colour. */
export function smallPrintLink(href: string, text: string): string {
  return `<a href="${escapeHtml(href)}" style="color:${SMALL_PRINT}">${escapeHtml(text)}</a>`;
}

/** A plain message with one call to action, as text and as the sender's HTML. */
export function actionMail(options: {
  sender: MailSender;
  to: string;
  subject: string;
  /** "Hello," — a name only when the address is one its owner has confirmed. */
  greeting: string;
  body: string;
  action: string;
  link: string;
  footer: string;
}): MailMessage {
  const text = [options.greeting, "", options.body, "", `${options.action}: ${options.link}`, "", options.footer].join(
    "\n",
  );
  const html = mailDocument({
    sender: options.sender,
    blocks: [`<p>${escapeHtml(options.greeting)}</p>`, `<p>${escapeHtml(options.body)}</p>`],
    action: { label: options.action, link: options.link },
    smallPrint: [`Or open this link: ${escapeHtml(options.link)}`, escapeHtml(options.footer)],
  });
  return { to: options.to, subject: options.subject, text, html, link: options.link };
}
