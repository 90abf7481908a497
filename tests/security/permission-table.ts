/**
 * The permission table: for every route in app/routes.ts, what a member, the
 * administrator of brand A, the administrator of brand B and an administrator
 * of the whole site get (permissions.test.ts). Each brand has a sentinel card
 * nobody owns; the member and brand A's administrator have cards in brand A,
 * brand B's administrator one in brand B. A route without rows fails the test.
 *
 * `expect` is one status per viewer, or "alike": a route that decides nothing
 * by brand answers all four the same. Placeholders: {cardA} {cardB} (usernames),
 * {cardAId} {cardBId} (ids), {brandA} {brandB} (brand ids).
 */
export type Who = "member" | "brandA" | "brandB" | "admin";

type Statuses = Record<Who, number>;

export type PermissionRow = {
  route: string;
  method: "GET" | "POST";
  url: string;
  form?: Record<string, string | string[]>;
  expect: Statuses | "alike";
  /** Why an answer is what it is, where the status alone does not say. */
  why?: string;
};

/** An administration page: a member is sent to the directory, everyone who administers something sees it. */
const SCOPED_PAGE: Statuses = { member: 302, brandA: 200, brandB: 200, admin: 200 };
/** A page of the whole site: a member is sent to the directory, a brand administrator refused. */
const SITE_PAGE: Statuses = { member: 302, brandA: 403, brandB: 403, admin: 200 };
/** A change to brand A's sentinel: its brand administrator and the administrator make it; brand B's finds nothing (a member never reaches the administration pages). */
const BRAND_A_CHANGE = (done: number): Statuses => ({ member: 302, brandA: done, brandB: 404, admin: done });
/** A change only an administrator of the whole site makes. */
const SITE_CHANGE = (done: number): Statuses => ({ member: 302, brandA: 403, brandB: 403, admin: done });

const get = (route: string, url: string, expect: Statuses | "alike", why?: string): PermissionRow => ({
  route,
  method: "GET",
  url,
  expect,
  why,
});

const post = (
  route: string,
  url: string,
  form: Record<string, string | string[]>,
  expect: Statuses,
  why?: string,
): PermissionRow => ({ route, method: "POST", url, form, expect, why });

/** A card form as the edit dialog sends it, for brand A's sentinel card moved to `brand`. */
const cardForm = (id: string, username: string, brand: string) => ({
  intent: "update",
  id,
  firstName: "Sentinel",
  lastName: "Card",
  username,
  email: `${username}@example.org`,
  companyBrandId: brand,
  redirectTo: "/admin/profiles",
});

export const PERMISSION_TABLE: PermissionRow[] = [
  // Visitors' pages and public cards: nothing in them depends on who administers what.
  ...[
    "auth",
    "auth/forgot-password",
    "auth/reset-password",
    "auth/confirm",
    "auth/verified",
    "auth/sign-out",
    "auth/invitation",
    "auth/confirm-admin",
    "auth/two-factor",
    "auth/two-factor-setup",
    "invitations/stop",
    "sso/saml/metadata",
    "sso/saml/acs",
    "uploads/*",
    "favicon.ico",
    "sw.js",
    "events",
    "terms",
    "privacy",
    "theme",
    "*",
  ].map((route) => get(route, "", "alike")),
  get("api/auth/*", "/api/auth/get-session", "alike"),
  get(
    "profile/:username",
    "/profile/{cardB}",
    "alike",
    "the card; which details each viewer reads is brand-access.test.ts's",
  ),
  get("profile/:username/contact.vcf", "/profile/{cardB}/contact.vcf", "alike"),
  get("profile/:username/qr.png", "/profile/{cardB}/qr.png", "alike"),
  get("profile/:username/og.png", "/profile/{cardB}/og.png", "alike"),
  get("profile/:username/manifest.webmanifest", "/profile/{cardB}/manifest.webmanifest", "alike"),
  get("profile/:username/icon-180.png", "/profile/{cardB}/icon-180.png", "alike"),
  get("profile/:username/icon-192.png", "/profile/{cardB}/icon-192.png", "alike"),
  get("profile/:username/icon-512.png", "/profile/{cardB}/icon-512.png", "alike"),
  get("profile/:username/share-back", "/profile/{cardB}/share-back", "alike"),
  get("brands/:id/logo.png", "/brands/{brandB}/logo.png", "alike"),
  get("qr/:username", "/qr/{cardB}", "alike"),

  // Everyone's own pages: their card, the directory, their account.
  ...[
    "",
    "directory",
    "profile/edit",
    "help",
    "account/card-email",
    "account/security",
    "account/security/passkeys",
    "share",
    "share/signature.html",
    "share/background-1920.png",
    "share/background-1280.png",
    "share/google-wallet",
    "share/apple-wallet.pkpass",
    "leads",
    "leads/export.csv",
    "leads/export.vcf",
  ].map((route) => get(route, "", "alike")),

  // The administration pages a brand administrator shares, each showing their brands only.
  get("admin/dashboard", "/admin/dashboard", SCOPED_PAGE),
  get("admin/profiles", "/admin/profiles", SCOPED_PAGE),
  get("admin/profiles/create", "/admin/profiles/create", SCOPED_PAGE),
  get(
    "admin/invitation-preview.html",
    "/admin/invitation-preview.html?brand={brandA}",
    { ...SCOPED_PAGE, brandB: 404 },
    "brand A's invitation: another brand's is not found",
  ),
  get("admin/brands", "/admin/brands", SCOPED_PAGE),
  get("admin/analytics", "/admin/analytics", SCOPED_PAGE),
  get("admin/audit", "/admin/audit", SCOPED_PAGE),
  get("admin/export/dashboard.csv", "/admin/export/dashboard.csv", SCOPED_PAGE),
  get("admin/export/analytics.csv", "/admin/export/analytics.csv", SCOPED_PAGE),
  get("admin/export/audit.csv", "/admin/export/audit.csv", SCOPED_PAGE),

  // The whole site's pages.
  get("admin/settings", "/admin/settings", { ...SITE_PAGE, admin: 302 }, "the settings open on their first tab"),
  ...[
    "admin/settings/general",
    "admin/settings/branding",
    "admin/settings/legal",
    "admin/settings/invitations",
    "admin/settings/joining",
    "admin/settings/fields",
    "admin/settings/security",
    "admin/settings/single-sign-on",
    "admin/settings/provisioning",
    "admin/settings/wallet",
  ].map((route) => get(route, `/${route}`, SITE_PAGE)),
  // Imports: a brand administrator imports into their brands and sees their own imports (brand-imports.test.ts).
  get("admin/import", "/admin/import", SCOPED_PAGE),
  get("admin/import/template.csv", "/admin/import/template.csv", SCOPED_PAGE),
  get(
    "admin/import/:id",
    "/admin/import/00000000-0000-4000-8000-000000000000",
    { ...SCOPED_PAGE, brandA: 404, brandB: 404, admin: 404 },
    "no such import",
  ),
  get(
    "admin/import/:id/report.csv",
    "/admin/import/00000000-0000-4000-8000-000000000000/report.csv",
    { ...SCOPED_PAGE, brandA: 404, brandB: 404, admin: 404 },
    "no such import",
  ),

  // Changing cards: brand A's sentinel is brand A's administrator's; brand B's administrator finds no such card.
  post("admin/profiles", "/admin/profiles", cardForm("{cardAId}", "{cardA}", "{brandA}"), BRAND_A_CHANGE(302)),
  post(
    "admin/profiles",
    "/admin/profiles",
    cardForm("{cardAId}", "{cardA}", "{brandB}"),
    { member: 302, brandA: 400, brandB: 404, admin: 302 },
    "brand A's administrator cannot move a card out of their brands",
  ),
  post(
    "admin/profiles",
    "/admin/profiles",
    { intent: "deactivate", id: "{cardAId}", redirectTo: "/admin/profiles" },
    BRAND_A_CHANGE(302),
  ),
  post(
    "admin/profiles",
    "/admin/profiles",
    { intent: "delete", id: "{cardAId}", redirectTo: "/admin/profiles" },
    BRAND_A_CHANGE(302),
  ),
  post(
    "admin/profiles",
    "/admin/profiles",
    { intent: "invite", id: "{cardAId}", redirectTo: "/admin/profiles" },
    { member: 302, brandA: 302, brandB: 302, admin: 302 },
    "brand B's administrator is told nobody was invited (brand-access.test.ts reads who was)",
  ),
  post(
    "admin/profiles",
    "/admin/profiles",
    { intent: "make-admin", id: "{cardAId}", redirectTo: "/admin/profiles" },
    SITE_CHANGE(302),
    "the sentinel has no account: the administrator is told so on the list",
  ),
  post(
    "admin/profiles",
    "/admin/profiles",
    { intent: "brand-administration", id: "{cardAId}", brandIds: ["{brandA}"], redirectTo: "/admin/profiles" },
    SITE_CHANGE(400),
    "the sentinel has no account to run a brand",
  ),
  post(
    "admin/profiles",
    "/admin/profiles",
    { intent: "set-brand", ids: ["{cardAId}"], brandId: "{brandB}", redirectTo: "/admin/profiles" },
    { member: 302, brandA: 302, brandB: 302, admin: 302 },
    "each is told on the list: brand A's administrator may not move it out, brand B's finds nobody to move",
  ),
  post(
    "admin/profiles",
    "/admin/profiles",
    { intent: "remove-second-factor", id: "{cardAId}", redirectTo: "/admin/profiles" },
    SITE_CHANGE(302),
  ),
  post(
    "admin/profiles",
    "/admin/profiles",
    { intent: "retry-mail", redirectTo: "/admin/profiles" },
    { member: 302, brandA: 403, brandB: 403, admin: 302 },
  ),
  post(
    "admin/profiles/create",
    "/admin/profiles/create",
    { firstName: "New", lastName: "Person", email: "new.person@example.org", companyBrandId: "{brandA}" },
    { member: 302, brandA: 302, brandB: 400, admin: 302 },
    "brand B's administrator makes cards in brand B only",
  ),

  // Brands: their administrators change their look; only administrators add and remove brands.
  post(
    "admin/brands",
    "/admin/brands",
    { intent: "update", id: "{brandA}", name: "Brand A", primaryColor: "#0f766e", secondaryColor: "#1d4ed8" },
    BRAND_A_CHANGE(302),
  ),
  post(
    "admin/brands",
    "/admin/brands",
    { intent: "create", name: "Brand C", primaryColor: "#0f766e", secondaryColor: "#1d4ed8" },
    SITE_CHANGE(302),
  ),
  post(
    "admin/brands",
    "/admin/brands",
    { intent: "template", id: "{brandA}", "template.office.value": "Sentinel HQ" },
    BRAND_A_CHANGE(302),
  ),
  post(
    "admin/brands",
    "/admin/brands",
    { intent: "appoint", id: "{brandA}", person: "{cardA}" },
    SITE_CHANGE(400),
    "the sentinel has no account to run a brand",
  ),
  post(
    "admin/brands",
    "/admin/brands",
    { intent: "dismiss", id: "{brandA}", person: "{cardA}" },
    SITE_CHANGE(400),
    "the sentinel has no account to run a brand",
  ),
  post("admin/brands", "/admin/brands", { intent: "delete", id: "{brandA}" }, SITE_CHANGE(302)),

  // The whole site's changes.
  post("admin/settings/general", "/admin/settings/general", { companyName: "Elsewhere" }, SITE_CHANGE(302)),
  post("admin/settings/joining", "/admin/settings/joining", { joinRule: "anyone" }, SITE_CHANGE(302)),
  post("admin/settings/security", "/admin/settings/security", { secondFactorRule: "everyone" }, SITE_CHANGE(302)),
  post("admin/dashboard", "/admin/dashboard", { intent: "finish-setup" }, SITE_CHANGE(302), "hiding the set-up list"),
];
