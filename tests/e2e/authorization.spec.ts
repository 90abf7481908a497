import { request as playwrightRequest } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import { present } from "../support/present";
import { expect, type StorageState, test } from "./fixtures";

/**
 * Every administrator page and action, requested directly over HTTP (not
 * through the UI) as a visitor, a member and an administrator. The first two
 * see nothing and change nothing.
 */
const PAGES = [
  "/admin/dashboard",
  "/admin/profiles",
  "/admin/profiles/create",
  "/admin/brands",
  "/admin/analytics",
  "/admin/settings",
  "/admin/settings/general",
  "/admin/settings/branding",
  "/admin/settings/legal",
  "/admin/settings/invitations",
  "/admin/settings/joining",
  "/admin/settings/fields",
  "/admin/settings/security",
  "/admin/settings/single-sign-on",
  "/admin/settings/provisioning",
  "/admin/settings/wallet",
  "/admin/export/dashboard.csv",
  "/admin/export/analytics.csv",
  "/admin/audit",
  "/admin/export/audit.csv",
  "/admin/import",
  "/admin/import/template.csv",
];

/** Seeded; no other test reads its view count, which the administrator's visit below changes. */
const CARD = { username: "kenji.watanabe", email: "kenji.watanabe@demo.namecard.test", lastName: "Watanabe" };

async function client(ip: string, storageState?: StorageState) {
  return playwrightRequest.newContext({
    baseURL: E2E_URL,
    extraHTTPHeaders: { "x-forwarded-for": ip, origin: E2E_URL },
    storageState,
  });
}

test("visitors and members can neither see nor change anything an administrator can", async ({ sessions }) => {
  const visitor = await client("10.30.0.1");
  const member = await client("10.30.0.2", await sessions("member"));
  const admin = await client("10.30.0.3", await sessions("admin"));

  for (const path of PAGES) {
    const asVisitor = await visitor.get(path, { maxRedirects: 0 });
    expect(asVisitor.status(), `visitor ${path}`).toBe(302);
    expect(asVisitor.headers().location).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);

    const asMember = await member.get(path, { maxRedirects: 0 });
    expect(asMember.status(), `member ${path}`).toBe(302);
    expect(asMember.headers().location).toBe("/directory");

    const asAdmin = await admin.get(path, { maxRedirects: 0 });
    if (path === "/admin/settings") {
      // The settings open on their first tab.
      expect([asAdmin.status(), asAdmin.headers().location], `admin ${path}`).toEqual([302, "/admin/settings/general"]);
    } else {
      expect(asAdmin.status(), `admin ${path}`).toBe(200);
    }
  }

  // The data requests client-side navigation makes: no administrator data either.
  for (const path of [
    "/admin/brands.data",
    "/admin/analytics.data",
    "/admin/profiles.data",
    "/admin/audit.data",
    "/_root.data?_routes=routes/app/home",
  ]) {
    for (const [who, api] of [
      ["visitor", visitor],
      ["member", member],
    ] as const) {
      const response = await api.get(path, { maxRedirects: 0 });
      const body = await response.text();
      expect(body, `${who} ${path}`).not.toMatch(
        /Northwind Traders|adoptionRate|claimedProfiles|profileCount|"actors"/,
      );
    }
  }

  // The same requests do carry that data for the administrator, so the checks above can fail.
  expect(await (await admin.get("/admin/brands.data")).text()).toContain("Northwind Traders");
  expect(await (await admin.get("/_root.data?_routes=routes/app/home")).text()).toContain("adoptionRate");
  expect(await (await admin.get("/admin/audit.data")).text()).toContain('"actors"');

  const seeded = await admin.get(`/admin/profiles.data?q=${CARD.username}`);
  const cardId = present(
    /"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/.exec(await seeded.text())?.[1],
    "the card's id in the administrator's data",
  );

  const attempts: [string, Record<string, string>][] = [
    ["/admin/brands", { intent: "create", name: "Hacked Brand", primaryColor: "#000000", secondaryColor: "#000000" }],
    ["/admin/profiles", { intent: "delete", id: cardId }],
    ["/admin/profiles", { intent: "deactivate", id: cardId }],
    ["/admin/profiles", { intent: "reactivate", id: cardId }],
    ["/admin/profiles", { intent: "make-admin", id: cardId }],
    ["/admin/profiles", { intent: "remove-admin", id: cardId }],
    [
      "/admin/profiles",
      {
        intent: "update",
        id: cardId,
        firstName: "Hacked",
        lastName: CARD.lastName,
        username: CARD.username,
        email: CARD.email,
      },
    ],
    ["/admin/profiles/create", { firstName: "Hacked", lastName: "Profile", email: "hacked@example.org" }],
    ["/admin/settings/general", { companyName: "Hacked Company" }],
    ["/admin/settings/branding", { primaryColor: "#ff0000" }],
    ["/admin/settings/legal", { termsOfService: "Hacked terms" }],
    ["/admin/settings/legal", { intent: "erase-leads", eraseEmail: "someone@example.org" }],
    ["/admin/settings/invitations", { autoReminders: "on", reminderAfterDays: "1", reminderMaxCount: "10" }],
    ["/admin/settings/joining", { joinRule: "anyone" }],
    ["/admin/settings/fields", { "fieldPolicy.phone.visibility": "public", "fieldPolicy.phone.locked": "on" }],
    // Invitations and reminders: no mail may be queued by anyone but an administrator.
    ["/admin/profiles", { intent: "invite", id: cardId }],
    ["/admin/profiles", { intent: "invite-selected", ids: cardId }],
    ["/admin/profiles", { intent: "invite-all" }],
    ["/admin/profiles", { intent: "remind-all" }],
    ["/admin/profiles", { intent: "retry-mail" }],
    // An old username leads to its card until an administrator releases it.
    ["/admin/profiles", { intent: "release-username", id: cardId, username: CARD.username }],
    ["/admin/import", { file: "First name,Last name,Email\nHacked,Import,hacked.import@example.org\n" }],
    // A provider of their own would sign anyone of its domains in.
    [
      "/admin/settings/single-sign-on",
      {
        intent: "save",
        name: "Hacked IdP",
        issuer: "https://idp.hacked.example",
        clientId: "x",
        clientSecret: "y",
        domains: "demo.namecard.test",
      },
    ],
    [
      "/admin/settings/single-sign-on",
      {
        intent: "save",
        protocol: "saml",
        name: "Hacked IdP",
        entityId: "https://idp.hacked.example",
        ssoUrl: "https://idp.hacked.example/sso",
        certificate: "MIIB",
        domains: "demo.namecard.test",
      },
    ],
    ["/admin/settings/single-sign-on", { intent: "delete", id: "00000000-0000-4000-8000-000000000000" }],
    // A provisioning token of their own would let them make and switch off cards.
    ["/admin/settings/provisioning", { intent: "create", name: "Hacked SCIM" }],
    ["/admin/settings/provisioning", { intent: "revoke", id: "00000000-0000-4000-8000-000000000000" }],
    ["/admin/settings/provisioning", { intent: "map", groupId: "00000000-0000-4000-8000-000000000000", brandId: "" }],
    // Making everyone set up a second step would shut colleagues out until they did; removing one would undo it.
    ["/admin/settings/security", { secondFactorRule: "everyone" }],
    ["/admin/profiles", { intent: "remove-second-factor", id: "00000000-0000-4000-8000-000000000000" }],
    // A wallet issuer of their own would sign passes in the company's name.
    ["/admin/settings/wallet", { intent: "save-google", issuerId: "123456789", serviceAccount: "{}" }],
    ["/admin/settings/wallet", { intent: "remove-google" }],
  ];
  for (const [path, fields] of attempts) {
    for (const [who, api] of [
      ["visitor", visitor],
      ["member", member],
    ] as const) {
      const response = await api.post(path, { multipart: fields, maxRedirects: 0 });
      expect([302, 403], `${who} POST ${path} ${JSON.stringify(fields)}`).toContain(response.status());
    }
  }

  // Nothing changed.
  expect(await (await admin.get("/admin/brands")).text()).not.toContain("Hacked Brand");
  expect(await (await admin.get("/admin/settings/single-sign-on")).text()).not.toContain("Hacked IdP");
  expect(await (await admin.get("/admin/settings/provisioning")).text()).not.toContain("Hacked SCIM");
  const card = await admin.get(`/profile/${CARD.username}`);
  expect(card.status()).toBe(200);
  expect(await card.text()).not.toContain("Hacked");
  expect(await (await admin.get("/admin/profiles?q=hacked")).text()).not.toContain("hacked@example.org");
  expect(await (await visitor.get("/auth")).text()).not.toContain("Hacked Company");
  expect(await (await admin.get(`/admin/profiles?q=${CARD.username}`)).text()).not.toContain("Invited on");
  // An import's page and its report stay closed too.
  for (const path of [
    "/admin/import/00000000-0000-4000-8000-000000000000",
    "/admin/import/00000000-0000-4000-8000-000000000000/report.csv",
  ]) {
    for (const [who, api] of [
      ["visitor", visitor],
      ["member", member],
    ] as const) {
      const response = await api.get(path, { maxRedirects: 0 });
      expect(response.status(), `${who} ${path}`).toBe(302);
    }
  }

  await Promise.all([visitor.dispose(), member.dispose(), admin.dispose()]);
});
