import { CARD_FIELDS, isCardField } from "./card-fields";

/**
 * The words of the audit log, shared by the server (which records and filters
 * entries) and the screen that lists them.
 */
export const AUDIT_ACTIONS = [
  "create",
  "update",
  "delete",
  "deactivate",
  "reactivate",
  "import",
  "invite",
  "remind",
  "retry",
  "discard",
  "settings",
  "role",
  "revoke",
  "map",
  "erase",
  "read",
  "second-factor",
  "brand-administrator",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  create: "Created",
  update: "Edited",
  delete: "Deleted",
  deactivate: "Deactivated",
  reactivate: "Reactivated",
  import: "Imported",
  invite: "Invited",
  remind: "Reminded",
  retry: "Retried mail",
  discard: "Discarded",
  settings: "Changed settings",
  role: "Changed role",
  revoke: "Revoked",
  map: "Mapped",
  erase: "Erased",
  read: "Read",
  "second-factor": "Removed second step",
  "brand-administrator": "Changed brand administration",
};

const AUDIT_TARGET_KINDS = [
  "profile",
  "brand",
  "settings",
  "import",
  "mail",
  "provider",
  "provisioning",
  "group",
  "leads",
] as const;
export type AuditTargetKind = (typeof AUDIT_TARGET_KINDS)[number];

export const AUDIT_TARGET_LABELS: Record<AuditTargetKind, string> = {
  profile: "Profile",
  brand: "Brand",
  settings: "Settings",
  import: "Import",
  mail: "Mail",
  provider: "Single sign-on",
  provisioning: "Provisioning",
  group: "Group",
  leads: "Leads",
};

/** What an entry records of a changed image: that it changed, never the file. */
export const IMAGE_SET = "image";
export const IMAGE_NEW = "new image";

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === "string" && (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** One changed field as a line of text: "field: old → new". */
export function describeChange(field: string, [before, after]: [unknown, unknown]): string {
  return `${fieldLabel(field)}: ${shown(before)} → ${shown(after)}`;
}

function shown(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return value;
  // A card's links read as their addresses, one after another.
  if (Array.isArray(value) && value.every((item) => typeof item?.url === "string")) {
    return value.length ? value.map((item) => item.url).join(", ") : "—";
  }
  return JSON.stringify(value);
}

const FIELD_LABELS: Record<string, string> = {
  companyBrandId: "brand",
  profilePhoto: "photo",
  fieldVisibility: "visibility",
  fieldPolicies: "card field visibility",
  coverImage: "cover image",
  showStatsToVisitors: "visitors see stats",
  deactivatedCards: "deactivated cards show",
  defaultLocale: "default language",
  clientId: "client ID",
  requireSso: "single sign-on required",
  refreshCard: "cards refreshed at sign-in",
  leadRetentionMonths: "leads kept (months)",
  adminsSeeLeads: "administrators read leads",
  secondFactorRule: "second step asked of",
};

/** A field's name as people say it: "firstName" is "first name". */
function fieldLabel(field: string): string {
  if (isCardField(field)) return CARD_FIELDS[field].auditLabel;
  return FIELD_LABELS[field] ?? field.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}
