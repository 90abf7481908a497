/** Leads a visitor shares back from a card (docs/decisions/034-leads.md): what page and server agree on. */

/** How long leads are kept unless the company chooses otherwise, and the longest it may choose. */
export const LEAD_RETENTION_DEFAULT_MONTHS = 12;
export const LEAD_RETENTION_MAX_MONTHS = 120;

/** The longest value of each field a visitor fills in. */
export const LEAD_LIMITS = { name: 100, email: 254, phone: 40, company: 100, title: 100, message: 1000 } as const;

/** The owner's own note about a lead, at most. */
export const LEAD_NOTE_MAX = 2000;

/**
 * The consent text's version: raised whenever its wording changes, so each
 * lead says which words its visitor agreed to (the words themselves are
 * stored with it too).
 */
export const LEAD_CONSENT_VERSION = 1;

export type LeadSource = "card" | "qr";

export const LEAD_SOURCE_LABELS: Record<LeadSource, string> = { card: "Card page", qr: "QR code" };
