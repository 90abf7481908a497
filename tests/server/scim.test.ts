import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { requireViewer } from "~/.server/http/authz";
import { db } from "~/.server/platform/db/client";
import {
  auditLog,
  brandDomains,
  brands,
  profiles,
  scimConnections,
  sessions,
  siteSettings,
  users,
} from "~/.server/platform/db/schema";
import { isDeactivatedAccount } from "~/.server/profiles/deactivation";
import { revokeConnection } from "~/.server/scim/connections";
import { mapGroupToBrand } from "~/.server/scim/groups";
import { loader as provisioningLoader } from "~/routes/admin/provisioning";
import { loader as cardLoader } from "~/routes/profile/$username";
import { type ScimClient, scimFixture, startScim } from "../support/scim";
import { createMember, getRequest, insertCard, present, run } from "./helpers";

/**
 * Provisioning from Microsoft Entra ID and Okta: the requests exactly as their
 * documentation shows them (tests/fixtures/scim), replayed over HTTP against
 * the SCIM endpoint, and the card checked after each step.
 */

let scim: ScimClient;

/** The domains of the providers' documented examples, which the company lets in (Settings → Who can join). */
const DOMAINS = "example.com, example.org, testuser.com, microsoft.com, okta.local, contoso.example, contoso.com";

beforeEach(async () => {
  await db
    .insert(siteSettings)
    .values({ id: 1, joinRule: "domains", joinDomains: DOMAINS })
    .onConflictDoUpdate({ target: siteSettings.id, set: { joinRule: "domains", joinDomains: DOMAINS } });
  scim = await startScim("Entra ID");
});

afterEach(async () => {
  await scim.close();
});

async function cardByEmail(email: string) {
  const [card] = await db.select().from(profiles).where(sql`lower(${profiles.email}) = ${email.toLowerCase()}`);
  return card ?? null;
}

async function publicStatus(username: string) {
  return (await run(cardLoader, getRequest(`/profile/${username}`), { username })).status;
}

async function create(name: string) {
  const fixture = scimFixture(name);
  const answer = await scim.replay(fixture);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { fixture, answer, id: String(answer.body?.id) };
}

describe("SCIM provisioning, as Microsoft Entra ID sends it", () => {
  it("passes Entra's connection test: a filter on a random userName answers 200 with an empty list", async () => {
    const answer = await scim.replay(scimFixture("entra-connection-test"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/scim\+json/);
    expect(answer.body).toMatchObject({ totalResults: 0, Resources: [] });
  });

  it("shows the administrator each attribute it reads and the card field it fills, and each does what the screen says", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const page = await run(provisioningLoader, getRequest("/admin/settings/provisioning"), {}, admin.viewer);
    const rows = (page.data as { attributes: { attribute: string; field: string }[] }).attributes;
    expect(rows.map((row) => row.field)).toEqual(
      expect.arrayContaining(["Email", "First name", "Last name", "Manager"]),
    );

    // Every card field the screen names by a single attribute, sent as that attribute, lands in that field.
    const samples: Record<string, [string, string]> = {
      "Job title": ["title", "Buyer"],
      Department: ["department", "Research"],
      Office: ["office", "Tokyo"],
      Phone: ["phone", "+81 3 1234 5678"],
    };
    const created = await scim.request("POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: "ren.mori@contoso.example",
      name: { givenName: "Ren", familyName: "Mori" },
      active: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const fieldRows = rows.filter((row) => !["Email", "First name", "Last name", "Manager"].includes(row.field));
    for (const row of fieldRows.filter((row) => !/^(active|Groups)/.test(row.attribute))) {
      const sample = samples[row.field];
      expect(sample, `a sample value for ${row.field}, read from ${row.attribute}`).toBeDefined();
      const [key, value] = sample!;
      const path = row.attribute.split(", else ")[0]!;
      const patched = await scim.request("PATCH", `/Users/${String(created.body?.id)}`, {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "add", path, value }],
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect((await cardByEmail("ren.mori@contoso.example"))?.[key as "title"], `${row.field} from ${path}`).toBe(
        value,
      );
    }
  });

  it("puts a new person into the brand of their address's domain", async () => {
    const [brand] = await db.insert(brands).values({ name: "Contoso" }).returning();
    await db.insert(brandDomains).values({ domain: "contoso.example", brandId: present(brand, "the brand").id });
    const answer = await scim.request("POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: "lin.chen@contoso.example",
      name: { givenName: "Lin", familyName: "Chen" },
      emails: [{ primary: true, type: "work", value: "lin.chen@contoso.example" }],
      active: true,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect((await cardByEmail("lin.chen@contoso.example"))?.companyBrandId).toBe(brand?.id);
  });

  it("makes a card for a new person, published at once, with the audit entry under the connection's name", async () => {
    const { answer } = await create("entra-create-user");
    expect(answer.body).toMatchObject({ userName: "Test_User_00aa00aa-bb11-cc22-dd33-44ee44ee44ee", active: true });
    expect(answer.headers.get("location")).toBe(`http://localhost:3000/scim/v2/Users/${answer.body?.id}`);
    const card = present(await cardByEmail("Test_User_11bb11bb-cc22-dd33-ee44-55ff55ff55ff@testuser.com"), "the card");
    expect(card).toMatchObject({ firstName: "givenName", lastName: "familyName", userId: null, deactivatedAt: null });
    expect(await publicStatus(card.username)).toBe(200);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, card.id));
    expect(entry).toMatchObject({ actorName: "Entra ID", actorId: null, action: "create" });

    const found = await scim.replay(scimFixture("entra-get-user-by-query"));
    expect(found.status).toBe(200);
  });

  it("follows Entra's PATCH requests: capitalised ops, filtered paths, path-less values keyed by path, and the manager", async () => {
    const { id } = await create("entra-create-user");
    const email = "Test_User_11bb11bb-cc22-dd33-ee44-55ff55ff55ff@testuser.com";
    const multi = await scim.replay(scimFixture("entra-patch-multi-valued", { id }));
    expect(multi.status, JSON.stringify(multi.body)).toBe(200);
    expect(await cardByEmail(email)).toBeNull();
    expect(await cardByEmail("updatedEmail@microsoft.com")).toMatchObject({ lastName: "updatedFamilyName" });

    const several = await scim.replay(scimFixture("entra-patch-replace-multiple-compliant", { id }));
    expect(several.status, JSON.stringify(several.body)).toBe(200);
    expect(several.body).toMatchObject({
      displayName: "Bjfe",
      name: { givenName: "Kkom", familyName: "Unua" },
      "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": { employeeNumber: "Aklq" },
    });
    expect(await cardByEmail("TestMhvaes@test.microsoft.com")).toMatchObject({ firstName: "Kkom", lastName: "Unua" });

    // Department and phone come from the card fields' SCIM paths.
    const fields = await scim.request("PATCH", `/Users/${id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [
        { op: "Add", path: 'phoneNumbers[type eq "work"].value', value: "+44 20 7946 0958" },
        {
          op: "Replace",
          path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department",
          value: "Research",
        },
        { op: "Replace", path: "title", value: "Engineer" },
      ],
    });
    expect(fields.status, JSON.stringify(fields.body)).toBe(200);
    expect(await cardByEmail("TestMhvaes@test.microsoft.com")).toMatchObject({
      phone: "+44 20 7946 0958",
      department: "Research",
      title: "Engineer",
    });

    const boss = await scim.request("POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: "grace@contoso.example",
      name: { givenName: "Grace", familyName: "Hopper" },
    });
    const manager = await scim.replay(scimFixture("entra-patch-manager", { id, memberId: String(boss.body?.id) }));
    expect(manager.status, JSON.stringify(manager.body)).toBe(200);
    const bossCard = present(await cardByEmail("grace@contoso.example"), "the manager's card");
    expect(await cardByEmail("TestMhvaes@test.microsoft.com")).toMatchObject({ managerId: bossCard.id });
  });

  it('switches a card off with Entra\'s "False" string and on again with true: 410, sessions ended, still listed as inactive', async () => {
    const member = await createMember();
    const { id } = await (async () => {
      const answer = await scim.request("POST", "/Users", {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
        userName: member.email,
        name: { givenName: "Mia", familyName: "Member" },
        emails: [{ value: member.email, type: "work", primary: true }],
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return { id: String(answer.body?.id) };
    })();
    // The member's own card, claimed when they signed up, is the one provisioned: never a second one.
    const card = present(await cardByEmail(member.email), "the member's card");
    expect(card.id).toBe(member.profile.id);

    const off = await scim.replay(scimFixture("entra-patch-disable-string-false", { id }));
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ active: false });
    expect(await publicStatus(card.username)).toBe(410);
    expect(
      await db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, present(card.userId, "owner"))),
    ).toEqual([]);
    const listed = await scim.request("GET", `/Users?filter=userName eq "${member.email.toUpperCase()}"`);
    expect(listed.body).toMatchObject({ totalResults: 1, Resources: [{ id, active: false }] });

    const on = await scim.request("PATCH", `/Users/${id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "Replace", path: "active", value: "True" }],
    });
    expect(on.status).toBe(200);
    expect(await publicStatus(card.username)).toBe(200);
    const actions = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, card.id));
    expect(actions.map((entry) => entry.action)).toEqual(expect.arrayContaining(["deactivate", "reactivate"]));
  });

  it("answers an unknown id with 404 in SCIM's error schema, and a DELETE switches the card off and forgets the person", async () => {
    const missing = await scim.replay(scimFixture("entra-get-user-not-found"));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "404" });

    const { id } = await create("entra-create-user");
    const card = present(await cardByEmail("Test_User_11bb11bb-cc22-dd33-ee44-55ff55ff55ff@testuser.com"), "the card");
    const deleted = await scim.replay(scimFixture("entra-delete-user", { id }));
    expect(deleted.status).toBe(204);
    expect((await scim.request("GET", `/Users/${id}`)).status).toBe(404);
    expect(await publicStatus(card.username)).toBe(410);
    // The card and its history stay for the administrator.
    expect(await cardByEmail(card.email)).toMatchObject({ id: card.id });
  });

  it("maps a group to a brand: its members' cards carry it, and lose it when they leave", async () => {
    const [brand] = await db.insert(brands).values({ name: "Contoso Labs" }).returning();
    const { id: userId } = await create("entra-create-user");
    const group = await scim.replay(scimFixture("entra-create-group"));
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const groupId = String(group.body?.id);
    const added = await scim.replay(scimFixture("entra-patch-group-add-member", { id: groupId, memberId: userId }));
    expect(added.status, JSON.stringify(added.body)).toBe(204);
    const email = "Test_User_11bb11bb-cc22-dd33-ee44-55ff55ff55ff@testuser.com";
    expect((await cardByEmail(email))?.companyBrandId).toBeNull();

    const admin = await createMember();
    await mapGroupToBrand({ ...admin.viewer, role: "admin" }, groupId, present(brand, "brand").id);
    expect((await cardByEmail(email))?.companyBrandId).toBe(brand?.id);

    const listed = await scim.request("GET", `/Groups/${groupId}?excludedAttributes=members`);
    expect(listed.body).not.toHaveProperty("members");
    const removed = await scim.replay(
      scimFixture("entra-patch-group-remove-member", { id: groupId, memberId: userId }),
    );
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    expect((await cardByEmail(email))?.companyBrandId).toBeNull();
  });
});

describe("SCIM discovery", () => {
  it("describes itself: the service provider's configuration, its resource types and the schemas of what it keeps", async () => {
    const config = await scim.request("GET", "/ServiceProviderConfig");
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 200 },
      authenticationSchemes: [{ type: "oauthbearertoken" }],
    });
    const types = await scim.request("GET", "/ResourceTypes");
    expect(types.body).toMatchObject({ totalResults: 2, Resources: [{ id: "User" }, { id: "Group" }] });
    expect((await scim.request("GET", "/ResourceTypes/User")).body).toMatchObject({
      schemaExtensions: [{ schema: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User" }],
    });
    const schemas = await scim.replay(scimFixture("entra-get-schemas"));
    expect(schemas.status).toBe(200);
    expect(schemas.body).toMatchObject({ totalResults: 3 });
    expect((await scim.request("GET", "/Schemas/urn:nothing")).status).toBe(404);
    expect((await scim.request("GET", "/Elsewhere")).status).toBe(404);
    const wrongMethod = await scim.request("POST", "/ServiceProviderConfig", {});
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toMatchObject({ status: "405" });
  });
});

describe("SCIM provisioning, as Okta sends it", () => {
  it("creates, finds by userName in any case, pages one at a time, replaces and deactivates without a path", async () => {
    const { id } = await create("okta-create-user");
    const card = present(await cardByEmail("test.user@okta.local"), "the card");
    expect(card).toMatchObject({ firstName: "Test", lastName: "User" });
    const second = await scim.request("POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: "second.user@okta.local",
    });
    expect(second.status).toBe(201);

    const page = await scim.replay(scimFixture("okta-paging"));
    expect(page.body).toMatchObject({ totalResults: 2, startIndex: 1, itemsPerPage: 1 });
    const found = await scim.replay(scimFixture("okta-filter-username-case"));
    expect(found.status).toBe(200);
    expect(await scim.replay(scimFixture("okta-filter-username"))).toMatchObject({
      status: 200,
      body: { totalResults: 1, Resources: [{ id, userName: "test.user@okta.local" }] },
    });

    const duplicate = await scim.replay(scimFixture("okta-create-user-duplicate"));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ scimType: "uniqueness", status: "409" });

    const replaced = await scim.replay(scimFixture("okta-replace-user", { id }));
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);

    const off = await scim.replay(scimFixture("okta-deactivate", { id }));
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ active: false });
    expect(await publicStatus(card.username)).toBe(410);
    // The password Okta sends is never kept nor answered.
    expect(JSON.stringify((await scim.request("GET", `/Users/${id}`)).body)).not.toContain("1mz050nq");
  });

  it("takes the unclaimed card an administrator prepared for the address, and never a card claimed by someone else", async () => {
    const prepared = await insertCard({ email: "test.user@okta.local", title: "Prepared title" });
    await create("okta-create-user");
    const cards = await db.select().from(profiles);
    expect(cards.filter((card) => card.email.toLowerCase() === "test.user@okta.local")).toHaveLength(1);
    expect(await cardByEmail("test.user@okta.local")).toMatchObject({ id: prepared.id, title: "Prepared title" });

    const member = await createMember();
    const [claimed] = await db
      .update(profiles)
      .set({ email: "taken@okta.local" })
      .where(eq(profiles.id, member.profile.id))
      .returning();
    const refused = await scim.request("POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: "taken@okta.local",
    });
    expect(refused.status).toBe(409);
    expect(await cardByEmail("taken@okta.local")).toMatchObject({
      id: member.profile.id,
      userId: present(claimed?.userId, "owner"),
    });
  });
});

describe("SCIM provisioning, refused and raced", () => {
  it("refuses a missing, wrong, revoked or query-string token with 401, and stores only the token's hash", async () => {
    expect((await scim.request("GET", "/Users", undefined, { token: null })).status).toBe(401);
    const wrong = await scim.request("GET", "/Users", undefined, { token: "non-token" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "401" });
    const inQuery = await scim.request("GET", `/Users?access_token=${scim.token}`, undefined, { token: null });
    expect(inQuery.status).toBe(401);
    const stored = await db.select().from(scimConnections);
    expect(JSON.stringify(stored)).not.toContain(scim.token);

    const admin = await createMember();
    await revokeConnection({ ...admin.viewer, role: "admin" }, scim.connection.id);
    expect((await scim.request("GET", "/Users")).status).toBe(401);
  });

  it("refuses other filters, caps the page size, and answers a large body 413 and another media type 415", async () => {
    for (const filter of [
      'userName eq "x" or 1 eq 1',
      'userName co "a"',
      "title eq x",
      'userName eq "x" and',
      "(userName eq x)",
    ]) {
      const answer = await scim.request("GET", `/Users?filter=${encodeURIComponent(filter)}`);
      expect(answer.status, filter).toBe(400);
      expect(answer.body, filter).toMatchObject({ scimType: "invalidFilter" });
    }
    expect((await scim.request("GET", "/Users?count=100000")).body).toMatchObject({ totalResults: 0 });
    const huge = await scim.request("POST", "/Users", undefined, {
      raw: JSON.stringify({ userName: "x".repeat(5_000_000) }),
    });
    expect(huge.status).toBe(413);
    const plain = await scim.request("POST", "/Users", undefined, { raw: "{}", contentType: "text/plain" });
    expect(plain.status).toBe(415);
    const json = await scim.request(
      "POST",
      "/Users",
      { userName: "plain.json@okta.local" },
      { contentType: "application/json; charset=utf-8" },
    );
    expect(json.status).toBe(201);
    const broken = await scim.request("POST", "/Users", undefined, { raw: "{" });
    expect(broken.body).toMatchObject({ status: "400", scimType: "invalidSyntax" });
    expect(await db.select().from(profiles)).toHaveLength(1);
  });

  it("lets one of two creates of the same userName win, and runs a PATCH and a DELETE of one person one after the other", async () => {
    const body = { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "race@okta.local" };
    const answers = await Promise.all([scim.request("POST", "/Users", body), scim.request("POST", "/Users", body)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(await db.select().from(profiles)).toHaveLength(1);

    const id = String(answers.find((answer) => answer.status === 201)?.body?.id);
    const patch = {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", path: "title", value: "Racer" }],
    };
    const [patched, deleted] = await Promise.all([
      scim.request("PATCH", `/Users/${id}`, patch),
      scim.request("DELETE", `/Users/${id}`),
    ]);
    expect([200, 404]).toContain(patched.status);
    expect(deleted.status).toBe(204);
    expect((await scim.request("GET", `/Users/${id}`)).status).toBe(404);
    expect(await cardByEmail("race@okta.local")).toMatchObject({ deactivatedAt: expect.any(Date) });
  });

  it("never takes over or switches off an administrator's card, and refuses an address the company does not let in", async () => {
    const breakGlass = await scim.request("POST", "/Users", { userName: "admin@example.com", active: false });
    expect(breakGlass.status).toBe(409);
    expect(await cardByEmail("admin@example.com")).toBeNull();

    const admin = await createMember();
    await db.update(users).set({ role: "admin" }).where(eq(users.email, admin.email));
    const taken = await scim.request("POST", "/Users", { userName: admin.email, active: false });
    expect(taken.status).toBe(409);
    expect(await cardByEmail(admin.email)).toMatchObject({ deactivatedAt: null });

    const outside = await scim.request("POST", "/Users", { userName: "mallory@gmail.example" });
    expect(outside.status).toBe(400);
    expect(outside.body).toMatchObject({ scimType: "invalidValue" });
    expect(String(outside.body?.detail)).toContain("gmail.example");
    expect(await cardByEmail("mallory@gmail.example")).toBeNull();
  });

  it("keeps a card an administrator switched off when the provider changes something else", async () => {
    const { id } = await create("okta-create-user");
    const card = present(await cardByEmail("test.user@okta.local"), "the card");
    await db.update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.id, card.id));
    const patch = await scim.request("PATCH", `/Users/${id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", path: "title", value: "Lead" }],
    });
    expect(patch.status).toBe(200);
    expect(await cardByEmail("test.user@okta.local")).toMatchObject({ title: "Lead", deactivatedAt: expect.any(Date) });
  });

  it("answers bad values with 400 and never a 500: NUL characters, nulls Entra sends, paths it does not keep", async () => {
    const nul = await scim.request("POST", "/Users", { userName: "nul\u0000@okta.local" });
    expect(nul.status).toBe(400);
    const nulFilter = await scim.request("GET", `/Users?filter=${encodeURIComponent('userName eq "a\\u0000"')}`);
    expect(nulFilter.status).toBe(400);
    const nulls = await scim.replay(scimFixture("entra-create-user-with-nulls"));
    expect(nulls.status, JSON.stringify(nulls.body)).toBe(201);
    const roles = await scim.replay(scimFixture("entra-patch-roles-json-string", { id: String(nulls.body?.id) }));
    expect(roles.status, JSON.stringify(roles.body)).toBe(200);
    const byEmail = await scim.request(
      "GET",
      `/Users?filter=${encodeURIComponent(`emails[type eq "work"].value eq "${String((nulls.body?.emails as { value: string }[])?.[0]?.value)}"`)}`,
    );
    expect(byEmail.body).toMatchObject({ totalResults: 1 });
    for (const body of [
      { userName: ["x"] },
      { userName: "y@okta.local", name: "Y" },
      { userName: "z@okta.local", emails: "z" },
    ]) {
      expect((await scim.request("POST", "/Users", body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("SCIM provisioning, rehires and administrators", () => {
  const person = (email: string, active = true) => ({
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
    userName: email,
    name: { givenName: "Re", familyName: "Hire" },
    active,
  });

  it("re-creates a person whose card already holds what the provider sends, and switches their card on again", async () => {
    const prepared = await insertCard({ email: "re.hire@okta.local", firstName: "Re", lastName: "Hire" });
    const first = await scim.request("POST", "/Users", person("re.hire@okta.local"));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await scim.request("DELETE", `/Users/${String(first.body?.id)}`)).status).toBe(204);
    expect(await publicStatus(prepared.username)).toBe(410);

    // The rehire, and the provider's retry of it: the same card, on again, and 201 each time.
    for (const attempt of [1, 2]) {
      const again = await scim.request("POST", "/Users", person("re.hire@okta.local"));
      expect(again.status, `attempt ${attempt}: ${JSON.stringify(again.body)}`).toBe(201);
      expect(again.body).toMatchObject({ active: true });
      expect(await cardByEmail("re.hire@okta.local")).toMatchObject({ id: prepared.id, deactivatedAt: null });
      expect(await publicStatus(prepared.username)).toBe(200);
      expect((await scim.request("DELETE", `/Users/${String(again.body?.id)}`)).status).toBe(204);
    }
  });

  it("never lets a provider lock a member out through a card at their account's address while their own card shows another", async () => {
    const member = await createMember();
    await db.update(profiles).set({ email: "shown.elsewhere@example.com" }).where(eq(profiles.id, member.profile.id));
    // A connection tries to make a switched-off card at the account's address.
    const refused = await scim.request("POST", "/Users", person(member.email, false));
    expect(refused.status).toBe(409);
    expect(await cardByEmail(member.email)).toBeNull();
    // Even an unclaimed, switched-off card at that address (made before the rule) decides nothing for the account.
    await insertCard({ email: member.email, deactivatedAt: new Date() });
    expect(await isDeactivatedAccount({ id: member.id, email: member.email })).toBe(false);
    expect((await requireViewer(getRequest("/", member.cookie))).profile?.id).toBe(member.profile.id);

    // The same for an administrator by role, whose address no provider may take.
    const admin = await createMember();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.id));
    await db.update(profiles).set({ email: "admin.card@example.com" }).where(eq(profiles.id, admin.profile.id));
    expect((await scim.request("POST", "/Users", person(admin.email, false))).status).toBe(409);
    expect(await isDeactivatedAccount({ id: admin.id, email: admin.email })).toBe(false);
  });

  it("never switches off, edits or deletes the card of a person made an administrator after they were provisioned", async () => {
    const member = await createMember();
    const linked = await scim.request("POST", "/Users", person(member.email));
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    const id = String(linked.body?.id);
    await db.update(users).set({ role: "admin" }).where(eq(users.id, member.id));

    const patch = (Operations: unknown[]) =>
      scim.request("PATCH", `/Users/${id}`, { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations });
    for (const answer of [
      await patch([{ op: "replace", path: "active", value: false }]),
      await patch([{ op: "replace", path: "title", value: "Renamed by the provider" }]),
      await patch([{ op: "replace", path: 'emails[type eq "work"].value', value: "moved@example.com" }]),
      await scim.request("PUT", `/Users/${id}`, person("moved@example.com", false)),
      await scim.request("DELETE", `/Users/${id}`),
    ]) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(409);
      expect(String(answer.body?.detail)).toContain("administrator's, managed in Namecard only");
    }
    const [card] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    expect(card).toMatchObject({ email: member.email, deactivatedAt: null });
    expect(card?.title).not.toBe("Renamed by the provider");
    expect((await requireViewer(getRequest("/", member.cookie))).profile?.id).toBe(member.profile.id);
  });
});
