import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { BrandTemplate, CardLink, FieldPolicies, FieldVisibility } from "../../../lib/card-fields";
import { IDENTITY_PROTOCOL_NAMES } from "../../../lib/identity-protocols";
import { FONT_FAMILIES, JOIN_RULES, SECOND_FACTOR_RULES } from "../../../lib/settings";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

// ── better-auth ──────────────────────────────────────────────────────────────
// Written by hand (better-auth's schema generator needs a newer Node): the property names are better-auth's field
// names, the columns are our snake_case.

/** A SAML provider's checked claims, kept until the browser that posted them comes back (sso/claims.ts names them). */
type StoredClaims = {
  issuer: string;
  subject: string;
  emailVerified: boolean | null;
  text: Record<string, string>;
};
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    phone: text("phone"),
    /** "admin" or "member": given and taken by administrators. ADMIN_EMAILS are administrators whatever it says. */
    role: text("role", { enum: ["admin", "member"] })
      .notNull()
      .default("member"),
    /** When the account last started a session, whichever way it signed in. */
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    /** Sign-ins so far: the first is welcomed as one. */
    signInCount: integer("sign_in_count").notNull().default(0),
    /** Whether a password sign-in asks for a code from an authenticator app (better-auth's two-factor plugin). */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("users_email_lower_key").on(sql`lower(${table.email})`),
    check("users_role_check", sql`${table.role} in ('admin', 'member')`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /**
     * Whether the sign-in rested on more than a password: a code from an authenticator app or a
     * recovery code after it, a passkey, or the company's identity provider
     * (docs/decisions/043-a-second-factor.md). Set when the session starts, never by a client.
     */
    secondFactor: boolean("second_factor").notNull().default(false),
    ...timestamps,
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

/**
 * An account's authenticator app: its TOTP secret and recovery codes, both encrypted with the
 * server's secret by better-auth. `verified` is false until the first code from the app is entered.
 */
export const twoFactors = pgTable(
  "two_factors",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (table) => [uniqueIndex("two_factors_user_id_key").on(table.userId)],
);

/** An account's passkeys: the public key of each (the private key never leaves the person's device). */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    name: text("name"),
    publicKey: text("public_key").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credentialID: text("credential_id").notNull(),
    counter: integer("counter").notNull(),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull(),
    transports: text("transports"),
    aaguid: text("aaguid"),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow(),
  },
  (table) => [
    index("passkeys_user_id_idx").on(table.userId),
    uniqueIndex("passkeys_credential_id_key").on(table.credentialID),
  ],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps,
  },
  (table) => [index("accounts_user_id_idx").on(table.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

export const rateLimits = pgTable("rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

// ── Accounts (ours) ──────────────────────────────────────────────────────────

/**
 * The one live emailed link per account and purpose: a new link replaces the
 * row, so every older link for that account stops working
 * (docs/decisions/009-mailbox-owner-decides.md). Only a hash of the token is kept.
 */
export const emailLinks = pgTable(
  "email_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    purpose: text("purpose", { enum: ["sign-up", "card-email", "invitation"] }).notNull(),
    /** The account the link is for; null for an invitation to a card whose person has no account yet. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Invitations only: the unclaimed card the link claims (migration 0011). */
    profileId: uuid("profile_id").references((): AnyPgColumn => profiles.id, { onDelete: "cascade" }),
    /** The address the link was sent to. */
    email: text("email").notNull(),
    /** Sign-up only: a hash of the key in the cookie of the browser that made the latest sign-up. */
    browserHash: text("browser_hash"),
    /** Sign-up only: the same-site path to open once confirmed. */
    redirectTo: text("redirect_to"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("email_links_user_purpose_key").on(table.userId, table.purpose),
    uniqueIndex("email_links_profile_purpose_key").on(table.profileId, table.purpose),
    check("email_links_owner", sql`${table.userId} is not null or ${table.profileId} is not null`),
  ],
);

/**
 * Counted events per key (a keyed hash of an address and what happened): mails
 * sent to an address, failed sign-ins of an account. Rows older than a day are pruned.
 */
export const throttleEvents = pgTable(
  "throttle_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    key: text("key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("throttle_events_key_created_idx").on(table.key, table.createdAt)],
);

// ── Namecard ─────────────────────────────────────────────────────────────────

export const brands = pgTable(
  "brands",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    primaryColor: text("primary_color").notNull().default("#3b82f6"),
    secondaryColor: text("secondary_color").notNull().default("#8b5cf6"),
    logo: text("logo"),
    coverImage: text("cover_image"),
    website: text("website"),
    active: boolean("active").notNull().default(true),
    /** Whether the brand's members may move their own card to another brand; off, a card stays where it was put. */
    membersChangeBrand: boolean("members_change_brand").notNull().default(false),
    /** Whether the brand's logo sits in the middle of its cards' QR codes. */
    qrLogo: boolean("qr_logo").notNull().default(false),
    /** The language of its cards for a visitor whose browser asks for none of ours; null means the company's. */
    defaultLocale: text("default_locale"),
    /** The brand's card template, checked as it is read (app/.server/brands/template.ts). */
    template: jsonb("template").$type<BrandTemplate>().notNull().default({}),
    /** The brand that people at no brand's domain land in when they join; one brand at most. */
    isDefault: boolean("is_default").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    index("brands_name_idx").on(table.name),
    uniqueIndex("brands_one_default_key").on(table.isDefault).where(sql`${table.isDefault}`),
    check("brands_primary_color_hex", sql`${table.primaryColor} ~ '^#[0-9a-fA-F]{6}$'`),
    check("brands_secondary_color_hex", sql`${table.secondaryColor} ~ '^#[0-9a-fA-F]{6}$'`),
  ],
);

/** The e-mail domains whose people belong to a brand, however they join: each domain at one brand. */
export const brandDomains = pgTable(
  "brand_domains",
  {
    domain: text("domain").primaryKey(),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("brand_domains_brand_id_idx").on(table.brandId)],
);

/** Who administers which brand: its cards, look, analytics and audit entries, nothing else. */
export const brandAdministrators = pgTable(
  "brand_administrators",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.brandId] }),
    index("brand_administrators_brand_id_idx").on(table.brandId),
  ],
);

export const profiles = pgTable(
  "profiles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The auth user who owns this card; null means unclaimed. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    username: text("username").notNull(),
    title: text("title"),
    phone: text("phone"),
    bio: text("bio"),
    linkedinUrl: text("linkedin_url"),
    department: text("department"),
    office: text("office"),
    pronouns: text("pronouns"),
    languages: text("languages"),
    /** Links beyond LinkedIn, in the owner's order (app/lib/card-fields.ts). */
    links: jsonb("links").$type<CardLink[]>().notNull().default([]),
    /** The visibilities the owner chose, field by field; a field left out follows the company's default. */
    visibilityChoices: jsonb("visibility_choices").$type<Partial<FieldVisibility>>().notNull().default({}),
    /**
     * The visibility in effect for each field: the owner's choice unless an
     * administrator locked the field, else the company's default. Kept here so
     * the search column can leave out what colleagues may not see; rewritten
     * for every card when the company's policies change
     * (docs/decisions/028-card-fields-and-visibility.md).
     */
    fieldVisibility: jsonb("field_visibility").$type<Partial<FieldVisibility>>().notNull().default({}),
    /** Who this person reports to; never themselves, never in a cycle (app/.server/profiles/managers.ts). */
    managerId: uuid("manager_id").references((): AnyPgColumn => profiles.id, { onDelete: "set null" }),
    /** Storage key of the photo; the public URL is derived from it. */
    profilePhoto: text("profile_photo"),
    companyBrandId: integer("company_brand_id").references(() => brands.id, {
      onDelete: "set null",
    }),
    viewCount: integer("view_count").notNull().default(0),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    /**
     * When an administrator switched the card off; null while it is active. A
     * deactivated card keeps its views and history but shows nowhere and its
     * owner cannot sign in (docs/decisions/019-deactivation-and-audit-log.md).
     */
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    /**
     * Whether the card was made when its person signed up, rather than prepared
     * by an administrator (created, imported): such a person joined by the
     * sign-up rule alone, so a stricter rule later leaves them outside it
     * (docs/decisions/024-who-can-join.md).
     */
    selfJoined: boolean("self_joined").notNull().default(false),
    /**
     * Lower-case, accent-free text of every searchable field, kept by the
     * database (migration 0002) and indexed with trigrams for substring search.
     */
    searchText: text("search_text").generatedAlwaysAs(
      sql`namecard_search_text(first_name, last_name, email, username, title, bio, department, office, field_visibility)`,
    ),
    ...timestamps,
  },
  (table) => [
    index("profiles_search_trgm_idx").using("gin", sql`${table.searchText} gin_trgm_ops`),
    uniqueIndex("profiles_user_id_key").on(table.userId),
    uniqueIndex("profiles_username_lower_key").on(sql`lower(${table.username})`),
    // A new card's username is its name's stem plus a number (profiles/usernames.ts): finding the
    // stems taken reads this index rather than every card, which made a large import slow down as it grew.
    index("profiles_username_stem_idx").on(sql`regexp_replace(lower(${table.username}), '[0-9]+$', '')`),
    uniqueIndex("profiles_email_lower_key").on(sql`lower(${table.email})`),
    index("profiles_first_name_idx").on(table.firstName, table.lastName),
    index("profiles_brand_idx").on(table.companyBrandId),
    index("profiles_department_idx").on(table.department),
    index("profiles_office_idx").on(table.office),
    index("profiles_manager_idx").on(table.managerId),
    index("profiles_created_at_idx").on(table.createdAt),
    index("profiles_view_count_idx").on(table.viewCount),
    index("profiles_deactivated_idx").on(table.deactivatedAt),
    // An uploaded photo is answered only while a card that shows it is active (app/routes/uploads.$.ts).
    index("profiles_photo_idx").on(table.profilePhoto),
    check("profiles_view_count_nonnegative", sql`${table.viewCount} >= 0`),
    check("profiles_manager_not_self", sql`${table.managerId} is null or ${table.managerId} <> ${table.id}`),
  ],
);

/**
 * The usernames a card had before: its old /profile and /qr addresses (printed
 * on QR codes) redirect to the card, and no other card may take them. Stored
 * lower-case; a card that takes its old name back removes it from here.
 */
export const usernameRedirects = pgTable(
  "username_redirects",
  {
    username: text("username").primaryKey(),
    /** The card it leads to; null once that card was deleted (the name then stays reserved until it expires). */
    profileId: uuid("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the name stops leading anywhere and is free for anyone again. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull().default(sql`now() + interval '365 days'`),
  },
  (table) => [
    index("username_redirects_profile_idx").on(table.profileId),
    check("username_redirects_lower_case", sql`${table.username} = lower(${table.username})`),
  ],
);

export const profileViews = pgTable(
  "profile_views",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    profileId: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    viewerUserId: text("viewer_user_id").references(() => users.id, { onDelete: "set null" }),
    /** A keyed hash of an anonymous visitor (address and browser), so no address is stored. */
    visitorHash: text("visitor_hash"),
    /** A keyed hash of the anonymous visitor's address alone, to cap views from one network. */
    networkHash: text("network_hash"),
    source: text("source", { enum: ["qr", "link", "directory"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("profile_views_profile_created_idx").on(table.profileId, table.createdAt),
    index("profile_views_created_idx").on(table.createdAt),
    index("profile_views_network_idx").on(table.profileId, table.networkHash, table.createdAt),
  ],
);

export const siteSettings = pgTable(
  "site_settings",
  {
    /** Always 1: there is a single row. */
    id: integer("id").primaryKey().default(1),
    companyName: text("company_name"),
    website: text("website"),
    email: text("email"),
    phone: text("phone"),
    description: text("description"),
    address: text("address"),
    primaryColor: text("primary_color"),
    secondaryColor: text("secondary_color"),
    accentColor: text("accent_color"),
    fontFamily: text("font_family", { enum: FONT_FAMILIES }),
    primaryLogo: text("primary_logo"),
    darkModeLogo: text("dark_mode_logo"),
    favicon: text("favicon"),
    footerLogo: text("footer_logo"),
    /** Whether visitors who are not signed in see a card's view count and "Member Since"; null means the default (yes). */
    showStatsToVisitors: boolean("show_stats_to_visitors"),
    // Automatic invitation reminders (migration 0011); null means the default.
    autoReminders: boolean("auto_reminders"),
    reminderAfterDays: integer("reminder_after_days"),
    reminderMaxCount: integer("reminder_max_count"),
    /** What a deactivated card's addresses answer: a 410 page, or a redirect to its brand's website; null means "gone". */
    deactivatedCards: text("deactivated_cards", { enum: ["gone", "brand-website"] }),
    /** The language of a card whose visitor's browser asks for none of ours; null means English. */
    defaultLocale: text("default_locale"),
    /**
     * Who may make an account (docs/decisions/024-who-can-join.md): people at the listed
     * domains, only people an administrator prepared a card for, or anyone; null means the
     * domains. `joinDomains` is the list, one lower-case domain a line; null means the domains of
     * ADMIN_EMAILS.
     */
    joinRule: text("join_rule", { enum: JOIN_RULES }),
    joinDomains: text("join_domains"),
    /** Per card field, the visibility new cards start with and whether members may change it; null means the defaults. */
    fieldPolicies: jsonb("field_policies").$type<Partial<FieldPolicies>>(),
    /** How long leads are kept, in months; null means the default (lib/leads.ts). */
    leadRetentionMonths: integer("lead_retention_months"),
    /** Whether administrators may read the leads of every card (they always see the counts); null means no. */
    adminsSeeLeads: boolean("admins_see_leads"),
    /**
     * Who must complete a password sign-in with a second factor (docs/decisions/043-a-second-factor.md):
     * administrators, or everyone; null means nobody is made to (anyone may still set one up).
     */
    secondFactorRule: text("second_factor_rule", { enum: SECOND_FACTOR_RULES }),
    termsOfService: text("terms_of_service"),
    privacyPolicy: text("privacy_policy"),
    /** When the getting-started list was finished or hidden (settings/getting-started.ts); null shows it to administrators. */
    setupFinishedAt: timestamp("setup_finished_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    check("site_settings_single_row", sql`${table.id} = 1`),
    check("site_settings_join_rule", sql`${table.joinRule} IN ('domains', 'invited', 'anyone')`),
    check("site_settings_second_factor_rule", sql`${table.secondFactorRule} IN ('admins', 'everyone')`),
  ],
);

/**
 * One row that `/healthz` writes on every check, so that "healthy" means the
 * database took a committed write, not only that it answered a read.
 */
export const healthChecks = pgTable(
  "health_checks",
  {
    id: integer("id").primaryKey().default(1),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("health_checks_single_row", sql`${table.id} = 1`)],
);

/**
 * What administrators did, written in the same transaction as the change
 * (docs/decisions/019-deactivation-and-audit-log.md). The actor's name and
 * address are kept as text so that an entry outlives the account; `changes`
 * holds each changed field as [old, new], never a secret, and for images only
 * that they changed.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorId: text("actor_id"),
    actorName: text("actor_name").notNull(),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id"),
    targetLabel: text("target_label").notNull(),
    changes: jsonb("changes").$type<Record<string, [unknown, unknown]>>().notNull().default({}),
    /** The bulk action the entry is one card of; its entries show as one row (app/.server/audit/list.ts). */
    batchId: uuid("batch_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("audit_log_created_idx").on(table.createdAt),
    index("audit_log_batch_idx").on(table.batchId).where(sql`${table.batchId} is not null`),
    index("audit_log_target_idx").on(table.targetKind, table.targetId, table.createdAt),
    index("audit_log_actor_idx").on(table.actorEmail),
  ],
);

// ── Bulk import (docs/decisions/020-bulk-import.md) ─────────────────────────

/** One uploaded CSV file: its header, chosen mapping and options, and how far its import has gone. */
export const imports = pgTable(
  "imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    fileName: text("file_name").notNull(),
    /** The file's first row, as read. */
    headers: jsonb("headers").$type<string[]>().notNull(),
    /** For each column, the card field it fills ("" for none). */
    mapping: jsonb("mapping").$type<string[]>().notNull(),
    /** The card fields an existing card takes from the file. */
    overwrite: jsonb("overwrite").$type<string[]>().notNull().default([]),
    /** Values of the office, department and brand columns imported under another value (lib/import.ts). */
    mergedValues: jsonb("merged_values").$type<Record<string, Record<string, string>>>().notNull().default({}),
    createBrands: boolean("create_brands").notNull().default(false),
    /** The brand every row goes into, when one was chosen; otherwise each row's own, or its address's. */
    brandId: integer("brand_id").references(() => brands.id, { onDelete: "set null" }),
    status: text("status", { enum: ["draft", "queued", "running", "done", "interrupted"] })
      .notNull()
      .default("draft"),
    totalRows: integer("total_rows").notNull(),
    processedRows: integer("processed_rows").notNull().default(0),
    createdCards: integer("created_cards").notNull().default(0),
    updatedCards: integer("updated_cards").notNull().default(0),
    unchangedRows: integer("unchanged_rows").notNull().default(0),
    failedRows: integer("failed_rows").notNull().default(0),
    /** Rows left out on purpose: accounts disabled where the file came from. */
    skippedRows: integer("skipped_rows").notNull().default(0),
    /** Why the last run stopped before the end. */
    error: text("error"),
    /** Written with every batch: a running import whose heartbeat is old was left by a stopped server. */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [index("imports_status_idx").on(table.status, table.createdAt)],
);

/** The rows of an uploaded file, and what importing each one did. */
export const importRows = pgTable(
  "import_rows",
  {
    importId: uuid("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    /** The row's line in the spreadsheet: the header is row 1. */
    rowNumber: integer("row_number").notNull(),
    cells: jsonb("cells").$type<string[]>().notNull(),
    /** Null until the row is imported. */
    outcome: text("outcome", { enum: ["created", "updated", "unchanged", "skipped", "error"] }),
    /** The error, or the fields an update changed. */
    detail: text("detail"),
  },
  (table) => [
    primaryKey({ columns: [table.importId, table.rowNumber] }),
    index("import_rows_pending_idx").on(table.importId, table.rowNumber).where(sql`${table.outcome} is null`),
  ],
);

export const authSchema = {
  user: users,
  session: sessions,
  account: accounts,
  verification: verifications,
  rateLimit: rateLimits,
  twoFactor: twoFactors,
  passkey: passkeys,
};

export type Profile = typeof profiles.$inferSelect;
export type Brand = typeof brands.$inferSelect;
export type SiteSettingsRow = typeof siteSettings.$inferSelect;

// ── Invitations and the mail queue (migration 0011) ─────────────────────────

/** Whether and when an unclaimed card's person was invited, and how often reminded. */
export const invitations = pgTable(
  "invitations",
  {
    profileId: uuid("profile_id")
      .primaryKey()
      .references(() => profiles.id, { onDelete: "cascade" }),
    invitedAt: timestamp("invited_at", { withTimezone: true }).notNull(),
    /** The latest invitation or reminder: automatic reminders count from here. */
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }).notNull(),
    remindersSent: integer("reminders_sent").notNull().default(0),
    /** When the person asked for no more invitations (the link in every invitation mail): none is sent again. */
    stoppedAt: timestamp("stopped_at", { withTimezone: true }),
  },
  (table) => [check("invitations_reminders_nonnegative", sql`${table.remindersSent} >= 0`)],
);

/**
 * Mail waiting to leave, kept in the database so it survives restarts and is
 * sent once however many app processes share it
 * (docs/decisions/021-invitations-and-the-mail-queue.md). A job names what to
 * send, not the mail: the link in it is made when it is sent, so no live token
 * is ever stored.
 */
export const mailJobs = pgTable(
  "mail_jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind", { enum: ["invitation", "reminder", "lead", "lead-card"] }).notNull(),
    profileId: uuid("profile_id").references(() => profiles.id, { onDelete: "cascade" }),
    /** A lead's mail (to the card's owner, or the card to the visitor): it goes when the lead is deleted. */
    leadId: uuid("lead_id").references((): AnyPgColumn => leads.id, { onDelete: "cascade" }),
    /** The address, for the administrator's list of failures. */
    email: text("email").notNull(),
    status: text("status", { enum: ["pending", "sending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When it may be tried (again). */
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    /** While sending: the lease, renewed while its process holds the job; past it, a crashed worker's job is taken again. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /**
     * The mail's Message-ID, recorded before its first send and the same on every later one:
     * a job taken over from a process that died is found in the outbox, or sent again under
     * this ID so that receiving systems can tell the repeat (decision 021).
     */
    messageId: text("message_id"),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("mail_jobs_due_idx").on(table.status, table.runAt),
    index("mail_jobs_profile_idx").on(table.profileId),
    index("mail_jobs_lead_idx").on(table.leadId),
    check("mail_jobs_status", sql`${table.status} in ('pending', 'sending', 'sent', 'failed')`),
  ],
);

export type MailJob = typeof mailJobs.$inferSelect;

// ── Single sign-on (docs/decisions/030-single-sign-on.md) ───────────────────

/**
 * A company's identity provider. The client secret is stored encrypted with
 * the server's secret (sso/secrets.ts) and never read back to a page.
 */
export const identityProviders = pgTable(
  "identity_providers",
  {
    id: uuid("id").primaryKey(),
    protocol: text("protocol", { enum: IDENTITY_PROTOCOL_NAMES }).notNull().default("oidc"),
    name: text("name").notNull(),
    /** OpenID Connect: the issuer URL; SAML: the provider's entity ID. */
    issuer: text("issuer").notNull(),
    /** OpenID Connect only. */
    clientId: text("client_id"),
    /** OpenID Connect only: sealed (sso/secrets.ts). */
    clientSecret: text("client_secret"),
    /** SAML only: where its sign-in page takes requests (HTTP-Redirect binding). */
    ssoUrl: text("sso_url"),
    /** SAML only: the certificates its signatures are checked against, sealed (sso/secrets.ts). */
    certificates: text("certificates"),
    /** SAML only: it may start a sign-in itself (an unsolicited response), which no browser binding protects. */
    idpInitiated: boolean("idp_initiated").notNull().default(false),
    /**
     * Where its sign-in page is (the origin of its authorization endpoint, found by
     * discovery): the sign-in page's policy lets its forms lead there.
     */
    authorizationOrigin: text("authorization_origin").notNull(),
    /** People of its domains may not use a password (ADMIN_EMAILS excepted). */
    requireSso: boolean("require_sso").notNull().default(false),
    /**
     * Since when the provider is required (null while it is not): a password sign-in of an
     * ADMIN_EMAILS address from then on needs a second factor (docs/decisions/043-a-second-factor.md).
     */
    requiredSince: timestamp("required_since", { withTimezone: true }),
    /** Later sign-ins copy the provider's name, job title and phone onto the card. */
    refreshCard: boolean("refresh_card").notNull().default(false),
    /**
     * The administrator says the provider owns its domains and verifies their addresses: an
     * account that exists already is linked at a first sign-in without the provider's `email_verified`.
     */
    verifiesAddresses: boolean("verifies_addresses").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("identity_providers_issuer_key").on(table.issuer),
    check(
      "identity_providers_protocol_check",
      sql`(${table.protocol} = 'oidc' and ${table.clientId} is not null and ${table.clientSecret} is not null) or (${table.protocol} = 'saml' and ${table.ssoUrl} is not null and ${table.certificates} is not null)`,
    ),
  ],
);

/** Each email domain belongs to at most one provider: the one a sign-in with that address goes to. */
export const identityProviderDomains = pgTable("identity_provider_domains", {
  domain: text("domain").primaryKey(),
  providerId: uuid("provider_id")
    .notNull()
    .references(() => identityProviders.id, { onDelete: "cascade" }),
});

/**
 * An account's identity at a provider, keyed by the provider's issuer and its
 * subject, never by an address: a changed email claim does not move it.
 */
export const ssoIdentities = pgTable(
  "sso_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The address the provider sent at the last sign-in, for the record. */
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.issuer, table.subject] }),
    index("sso_identities_user_idx").on(table.userId),
  ],
);

/**
 * A sign-in sent to a provider and not back yet: what its answer is checked
 * against. Keyed by a hash of its `state`, bound to the browser that started
 * it by a hash of a cookie, used once and short-lived.
 */
export const ssoLogins = pgTable(
  "sso_logins",
  {
    stateHash: text("state_hash").primaryKey(),
    providerId: uuid("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    browserHash: text("browser_hash").notNull(),
    /** OpenID Connect only. */
    codeVerifier: text("code_verifier"),
    nonce: text("nonce"),
    redirectTo: text("redirect_to").notNull(),
    /**
     * SAML: what the provider's checked answer says of the person, waiting for the browser
     * (the answer is a form posted from the provider's site, which carries no cookie).
     */
    claims: jsonb("claims").$type<StoredClaims>(),
    /**
     * A test sign-in an administrator started from the single sign-on screen: what the
     * provider sends is shown to them, and nothing is made, linked or signed in.
     */
    testBy: text("test_by").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("sso_logins_expires_idx").on(table.expiresAt)],
);

/** Each SAML assertion is used once: its ID is kept until it would have expired anyway. */
export const samlAssertions = pgTable(
  "saml_assertions",
  {
    providerId: uuid("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    assertionId: text("assertion_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.providerId, table.assertionId] }),
    index("saml_assertions_expires_idx").on(table.expiresAt),
  ],
);

// ── Provisioning (docs/decisions/032-scim-provisioning.md) ──────────────────

/** One identity provider's way in to provision people: a bearer token, of which only a hash is kept. */
export const scimConnections = pgTable("scim_connections", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  /** SHA-256 of the token, hex: the token itself was shown once and is stored nowhere. */
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  createdBy: text("created_by"),
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});

/** SCIM attributes kept flat, by path (`name.givenName`, `emails[type eq "work"].value`, the enterprise URN's). */
export type ScimAttributes = Record<string, string | boolean>;

/** A person as a provider knows them, linked to the one card they provision. */
export const scimUsers = pgTable(
  "scim_users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => scimConnections.id, { onDelete: "cascade" }),
    userName: text("user_name").notNull(),
    externalId: text("external_id"),
    active: boolean("active").notNull().default(true),
    attributes: jsonb("attributes").$type<ScimAttributes>().notNull().default({}),
    profileId: uuid("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("scim_users_user_name_idx").on(sql`lower(${table.userName})`),
    uniqueIndex("scim_users_profile_idx").on(table.profileId),
    index("scim_users_external_id_idx").on(table.connectionId, table.externalId),
    index("scim_users_listing_idx").on(table.connectionId, table.createdAt, table.id),
  ],
);

/** A provider's group; mapped to a brand, its members' cards carry that brand. */
export const scimGroups = pgTable(
  "scim_groups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => scimConnections.id, { onDelete: "cascade" }),
    displayName: text("display_name").notNull(),
    externalId: text("external_id"),
    brandId: integer("brand_id").references(() => brands.id, { onDelete: "set null" }),
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("scim_groups_name_idx").on(table.connectionId, sql`lower(${table.displayName})`)],
);

export const scimGroupMembers = pgTable(
  "scim_group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => scimGroups.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => scimUsers.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ name: "scim_group_members_pk", columns: [table.groupId, table.userId] }),
    index("scim_group_members_user_idx").on(table.userId),
  ],
);

/** A request of a connection that was refused, for the administrator; the newest few per connection are kept. */
export const scimErrors = pgTable(
  "scim_errors",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => scimConnections.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    detail: text("detail").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("scim_errors_connection_idx").on(table.connectionId, table.createdAt)],
);

/** A provider's recent sign-ins that ended without a session, for its administrators to see why (newest kept). */
export const ssoFailures = pgTable(
  "sso_failures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    providerId: uuid("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("sso_failures_provider_idx").on(table.providerId, table.createdAt)],
);

// ── Wallet passes (docs/decisions/033-card-everywhere.md) ───────────────────

/** The company's wallet credentials: one row. The service account's key is sealed (sso/secrets.ts). */
export const walletSettings = pgTable(
  "wallet_settings",
  {
    id: integer("id").primaryKey().default(1),
    googleIssuerId: text("google_issuer_id"),
    /** The service account's address, shown on the settings screen; its key never is. */
    googleClientEmail: text("google_client_email"),
    googleServiceAccount: text("google_service_account"),
    applePassTypeId: text("apple_pass_type_id"),
    appleTeamId: text("apple_team_id"),
    /** The pass-signing certificate and its key, sealed together (sso/secrets.ts). */
    appleSigner: text("apple_signer"),
    /** The signing certificate's name and expiry, shown on the settings screen; its key never is. */
    appleSignerName: text("apple_signer_name"),
    appleSignerExpiresAt: timestamp("apple_signer_expires_at", { withTimezone: true }),
    /** Apple's WWDR intermediate certificate (PEM): public, not a secret. */
    appleWwdr: text("apple_wwdr"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("wallet_settings_single_row", sql`${table.id} = 1`)],
);

// ── Leads (docs/decisions/034-leads.md) ─────────────────────────────────────

/** Details a visitor shared back from a card, with the consent they gave. */
export const leads = pgTable(
  "leads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    profileId: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    company: text("company"),
    title: text("title"),
    /** The visitor's own note. */
    message: text("message"),
    /** The card owner's note about the lead, never shown to the visitor. */
    ownerNote: text("owner_note"),
    /** Where the visitor came from: the card's page, or its QR code. */
    source: text("source", { enum: ["card", "qr"] }).notNull(),
    consentVersion: integer("consent_version").notNull(),
    /** The consent exactly as the visitor read it. */
    consentText: text("consent_text").notNull(),
    /** The language the form was shown in (and the consent written in): the visitor's mail is in it. */
    locale: text("locale").notNull().default("en"),
    /** The visitor asked for the owner's contact file by e-mail. */
    wantsCard: boolean("wants_card").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the retention period the visitor agreed to ends: it is deleted then, or sooner if the company shortens it. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("leads_profile_created_idx").on(table.profileId, table.createdAt),
    index("leads_created_idx").on(table.createdAt),
    index("leads_expires_idx").on(table.expiresAt),
    index("leads_email_idx").on(sql`lower(${table.email})`),
    check("leads_source", sql`${table.source} IN ('card', 'qr')`),
    check("leads_reachable", sql`${table.email} IS NOT NULL OR ${table.phone} IS NOT NULL`),
  ],
);

export type Lead = typeof leads.$inferSelect;

/** Contact files saved and wallet passes added, per card and day. */
export const cardSaves = pgTable(
  "card_saves",
  {
    profileId: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    kind: text("kind", { enum: ["contact", "wallet"] }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [
    primaryKey({ name: "card_saves_pk", columns: [table.profileId, table.day, table.kind] }),
    check("card_saves_kind", sql`${table.kind} IN ('contact', 'wallet')`),
  ],
);
