import {
  CARD_FIELD_KEYS,
  CARD_FIELDS,
  type CardDetails,
  type CardFieldKey,
  fieldTexts,
  LINK_KINDS,
} from "~/lib/card-fields";
import { brandPalette } from "~/lib/color";
import { mediaUrl } from "~/lib/media";
import { fullName } from "~/lib/names";
import { brandLogoPng } from "../brands/logo-png";
import { env } from "../platform/env";
import { jpegKeyOf } from "../platform/images";
import { escapeHtml } from "../platform/mail";
import { getSiteSettings } from "../platform/site-settings";
import { CARD_FIELD_RULES } from "./card-fields";
import { cardForViewer, getCardByUsername } from "./get-card";
import { cardUrl } from "./qr";

/**
 * A member's e-mail signature (docs/decisions/033-card-everywhere.md): HTML
 * that Outlook, Gmail and Apple Mail all keep as it is, and the same as plain
 * text. Mail programs drop `<style>`, classes, scripts and SVG, and many ignore
 * CSS layout, so the HTML is tables with inline styles only; every link and
 * image is absolute (mail is read far from this server), and every image has
 * its size and a text alternative. Only what the card shows to anyone is in it.
 */

type SignatureCard = Partial<CardDetails> & {
  firstName: string;
  lastName: string;
  username: string;
  profilePhoto: string | null;
  brand: { id: number; name: string; primaryColor: string; secondaryColor: string; logo: string | null } | null;
};

type SignatureSite = { companyName: string; primaryColor: string; secondaryColor: string };

/** Mail programs cut long signatures (Gmail at 10,000 characters): far less is needed. */
export const MAX_SIGNATURE_LENGTH = 10_000;

/** The logo's height in the signature; its width follows its shape. */
export const SIGNATURE_LOGO_HEIGHT = 28;

const FONT = "font-family:Arial,Helvetica,sans-serif";
const PHOTO = 72;

const absolute = (url: string) => (/^https?:\/\//.test(url) ? url : `${env.PUBLIC_URL}${url}`);
const attr = (value: string) => escapeHtml(value);

/** A phone number as a `tel:` address: digits and a leading plus only. */
function telOf(phone: string): string {
  return `tel:${phone.replace(/(?!^\+)[^\d]/g, "")}`;
}

function row(cell: string) {
  return `<tr><td style="${FONT};font-size:13px;line-height:18px;color:#4b5563;padding:0">${cell}</td></tr>`;
}

function link(href: string, text: string, color: string) {
  return `<a href="${attr(href)}" style="color:${color};text-decoration:none">${escapeHtml(text)}</a>`;
}

/** A card's links beyond the first few would crowd a signature out. */
const MAX_SIGNATURE_LINKS = 3;

/** The fields the signature shows in `place`, in the registry's order. */
function fieldsIn(place: "role" | "contact" | "web"): CardFieldKey[] {
  return CARD_FIELD_KEYS.filter((key) => CARD_FIELD_RULES[key].signature?.place === place);
}

/** One contact detail as a link its kind opens: a call, a message, or the text as it is. */
function contactOf(key: CardFieldKey, value: string): { html: string; text: string } {
  const kind = CARD_FIELDS[key].kind;
  const html =
    kind === "phone"
      ? link(telOf(value), value, "#374151")
      : kind === "email"
        ? link(`mailto:${value}`, value, "#374151")
        : escapeHtml(value);
  return { html, text: value };
}

/** The web links of a card, each with its label: a field's own, or a link's kind. */
function webLinksOf(card: SignatureCard): { label: string; url: string }[] {
  return fieldsIn("web").flatMap((key) => {
    const rule = CARD_FIELD_RULES[key].signature;
    const label = rule?.place === "web" ? rule.label : CARD_FIELDS[key].label;
    const value = card[key];
    if (Array.isArray(value)) {
      return value
        .slice(0, MAX_SIGNATURE_LINKS)
        .map((item) => ({ label: LINK_KINDS[item.kind] ?? label, url: item.url }));
    }
    return fieldTexts(value).map((url) => ({ label, url }));
  });
}

/** The signature as HTML and as plain text. `logo` is the brand logo's PNG size when it has one. */
function emailSignature(
  card: SignatureCard,
  site: SignatureSite,
  logo: { width: number; height: number } | null,
): { html: string; text: string } {
  const palette = card.brand
    ? brandPalette(card.brand.primaryColor, card.brand.secondaryColor)
    : brandPalette(site.primaryColor, site.secondaryColor);
  // Mail is read on white far more than on dark: the light theme's link colour, readable there.
  const accent = palette.light.ink;
  const name = fullName(card);
  const role = fieldsIn("role")
    .flatMap((key) => fieldTexts(card[key]))
    .join(", ");
  const company = card.brand?.name ?? site.companyName;
  const address = cardUrl(card.username);
  const contacts = fieldsIn("contact").flatMap((key) => fieldTexts(card[key]).map((value) => contactOf(key, value)));
  const webLinks = webLinksOf(card);
  const web = [link(address, "My digital card", accent), ...webLinks.map((item) => link(item.url, item.label, accent))];
  const photo = card.profilePhoto
    ? `<td style="padding:0 14px 0 0;vertical-align:top" width="${PHOTO}"><img src="${attr(absolute(mediaUrl(jpegKeyOf(card.profilePhoto)) ?? ""))}" width="${PHOTO}" height="${PHOTO}" alt="${attr(name)}" style="display:block;width:${PHOTO}px;height:${PHOTO}px;border:0;border-radius:${PHOTO / 2}px"></td>`
    : "";
  const logoRow =
    card.brand?.logo && logo
      ? `<tr><td style="padding:8px 0 0 0"><img src="${attr(`${env.PUBLIC_URL}/brands/${card.brand.id}/logo.png`)}" width="${logo.width}" height="${logo.height}" alt="${attr(company)}" style="display:block;border:0;width:${logo.width}px;height:${logo.height}px"></td></tr>`
      : "";
  const details = [
    `<tr><td style="${FONT};font-size:16px;line-height:22px;font-weight:bold;color:#111827;padding:0">${escapeHtml(name)}</td></tr>`,
    role ? row(escapeHtml(role)) : "",
    row(`<span style="color:${accent};font-weight:bold">${escapeHtml(company)}</span>`),
    contacts.length ? row(contacts.map((contact) => contact.html).join(" &nbsp;|&nbsp; ")) : "",
    row(web.join(" &nbsp;·&nbsp; ")),
    logoRow,
  ].join("");
  const html = `<table cellpadding="0" cellspacing="0" border="0" role="presentation" style="border-collapse:collapse"><tr>${photo}<td style="vertical-align:top;border-left:3px solid ${accent};padding:0 0 0 12px"><table cellpadding="0" cellspacing="0" border="0" role="presentation" style="border-collapse:collapse">${details}</table></td></tr></table>`;
  const text = [
    name,
    role,
    company,
    contacts.map((contact) => contact.text).join(" | "),
    `My digital card: ${address}`,
    ...webLinks.map((item) => `${item.label}: ${item.url}`),
  ]
    .filter(Boolean)
    .join("\n");
  return { html, text };
}

/**
 * The signature of the card with this username, or null when it is no active
 * card: only what the card shows to anyone goes into mail.
 */
export async function signatureOfCard(username: string): Promise<{ html: string; text: string } | null> {
  const card = await getCardByUsername(username);
  if (!card) return null;
  const [shown, site] = await Promise.all([cardForViewer(card, null), getSiteSettings()]);
  const logo = card.brand?.logo ? await brandLogoPng(card.brand.id, SIGNATURE_LOGO_HEIGHT) : null;
  return emailSignature({ ...shown, brand: card.brand?.id ? { ...card.brand, id: card.brand.id } : null }, site, logo);
}
