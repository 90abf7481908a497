import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import { auditLog, brands, profiles, siteSettings } from "~/.server/platform/db/schema";
import { cardForViewer, getCardByUsername } from "~/.server/profiles/get-card";
import { signatureOfCard } from "~/.server/profiles/signature";
import { applePassFields } from "~/.server/wallet/pass-fields";
import { action as brandsAction } from "~/routes/admin/brands";
import { action as profilesAction, loader as profilesLoader } from "~/routes/admin/profiles";
import { action as createAction } from "~/routes/admin/profiles-create";
import { loader as editLoader } from "~/routes/app/profile-edit";
import { loader as cardLoader } from "~/routes/profile/$username";
import { loader as vcardLoader } from "~/routes/profile/contact.vcf";
import {
  cookieFrom,
  createMember,
  getRequest,
  insertCard,
  multipartRequest,
  present,
  run,
  saveOwnCard,
} from "./helpers";

/**
 * A brand's card template (docs/decisions/045-brand-templates.md): the
 * values, visibilities and locks a brand sets on every card of it, read back
 * through every output a card has.
 */

type Member = Awaited<ReturnType<typeof createMember>>;

const HQ = "Aurora HQ, Rua Augusta 1, Lisbon";
const MAIN_PHONE = "+351 21 555 0100";
const SITE = "https://aurora-foods.example";

async function post(
  viewer: Member,
  action: (args: never) => unknown,
  path: string,
  fields: Record<string, string | string[]>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one);
  const answer = await run(action, await multipartRequest(path, form), {}, viewer.viewer);
  return { ...answer, toast: await readToast(cookieFrom(answer.headers)) };
}

function saveTemplate(viewer: Member, brandId: number, fields: Record<string, string>) {
  return post(viewer, brandsAction, "/admin/brands", { intent: "template", id: String(brandId), ...fields });
}

async function group() {
  const [aurora, borealis] = await db
    .insert(brands)
    .values([{ name: "Aurora Foods" }, { name: "Borealis Travel" }])
    .returning();
  const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
  const member = await createMember({ firstName: "Mia", lastName: "Member" });
  await db
    .update(profiles)
    .set({ companyBrandId: aurora!.id, office: "Home office", phone: "+351 91 000 0000" })
    .where(eq(profiles.id, member.profile.id));
  const colleague = await insertCard({ firstName: "Aki", lastName: "Aurora", companyBrandId: aurora!.id });
  const outsider = await insertCard({
    firstName: "Bea",
    lastName: "Borealis",
    companyBrandId: borealis!.id,
    office: "Oslo",
  });
  return {
    aurora: present(aurora, "Aurora"),
    borealis: present(borealis, "Borealis"),
    admin,
    member,
    colleague,
    outsider,
  };
}

async function cardOf(id: string) {
  return present((await db.select().from(profiles).where(eq(profiles.id, id)))[0], "the card");
}

/** Everything a visitor can take away of a card: its page, contact file, signature and pass. */
async function everyOutput(username: string) {
  const page = JSON.stringify((await run(cardLoader, getRequest(`/profile/${username}`), { username })).data);
  const vcard = (
    await (
      (await vcardLoader({
        params: { username },
        request: getRequest(`/profile/${username}/contact.vcf`),
        context: new RouterContextProvider(),
      } as never)) as Response
    ).text()
  ).replace(/\r\n /g, "");
  const signature = JSON.stringify(await signatureOfCard(username));
  const pass = JSON.stringify(
    applePassFields(await cardForViewer(present(await getCardByUsername(username), "card"), null)),
  );
  return { page, vcard, signature, pass };
}

describe("a brand's card template", () => {
  it("puts the brand's office, phone and website on every card of the brand at once, in every output, with one audit entry", async () => {
    const { aurora, admin, member, colleague, outsider } = await group();
    const saved = await saveTemplate(admin, aurora.id, {
      "template.office.value": HQ,
      "template.phone.value": MAIN_PHONE,
      "template.links.value": SITE,
      "template.department.visibility": "colleagues",
      "template.department.locked": "on",
    });
    expect(saved.toast?.text).toBe("Template of Aurora Foods saved: 2 cards updated.");

    for (const id of [member.profile.id, colleague.id]) {
      const card = await cardOf(id);
      expect(card).toMatchObject({ office: HQ, phone: MAIN_PHONE, links: [{ kind: "website", url: `${SITE}/` }] });
      expect(card.fieldVisibility.department).toBe("colleagues");
      const outputs = await everyOutput(card.username);
      expect(outputs.page).toContain(HQ);
      expect(outputs.page).toContain(MAIN_PHONE);
      expect(outputs.page).toContain(SITE);
      expect(outputs.vcard).toContain("Aurora HQ\\, Rua Augusta 1\\, Lisbon");
      expect(outputs.vcard).toContain(MAIN_PHONE);
      expect(outputs.vcard).toContain(SITE);
      expect(outputs.signature).toContain(MAIN_PHONE);
      expect(outputs.signature).toContain(SITE);
      expect(outputs.pass).toContain(HQ);
    }
    // Another brand's card is as it was.
    expect(await cardOf(outsider.id)).toMatchObject({ office: "Oslo", phone: null });

    const entries = await db.select().from(auditLog).where(eq(auditLog.targetKind, "brand"));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "update", targetLabel: "Aurora Foods" });
    expect(entries[0]?.changes).toMatchObject({
      "template: office": [null, `site default, locked: ${HQ}`],
      "template: department": [null, "Colleagues, locked"],
      "cards updated": [null, "2"],
    });
    // Saving the same template again changes nothing and records nothing.
    const again = await saveTemplate(admin, aurora.id, {
      "template.office.value": HQ,
      "template.phone.value": MAIN_PHONE,
      "template.links.value": SITE,
      "template.department.visibility": "colleagues",
      "template.department.locked": "on",
    });
    expect(again.toast?.text).toBe("The template of Aurora Foods was already so.");
    expect(await db.select().from(auditLog).where(eq(auditLog.targetKind, "brand"))).toHaveLength(1);
  });

  it("keeps what the brand locked out of its members' hands: shown as set by the brand, kept on save", async () => {
    const { aurora, admin, member } = await group();
    await saveTemplate(admin, aurora.id, {
      "template.office.value": HQ,
      "template.department.visibility": "colleagues",
      "template.department.locked": "on",
    });
    const form = await run(editLoader, getRequest("/profile/edit", member.cookie), {}, member.viewer);
    expect((form.data as { locked: object }).locked).toEqual({ office: "Aurora Foods", department: "Aurora Foods" });

    const saved = await saveOwnCard(member, {
      office: "My kitchen table",
      department: "Sales",
      "visibility.department": "public",
      title: "Chef",
    });
    expect(saved.status, JSON.stringify(saved.data)).toBe(302);
    const card = await cardOf(member.profile.id);
    // Their own title is saved; the brand's office, and the department they may not set, are not theirs to change.
    expect(card).toMatchObject({ title: "Chef", office: HQ, department: null });
    expect(card.fieldVisibility.department).toBe("colleagues");
  });

  it("shows an administrator which fields the card's brand sets, and keeps the brand's value when they save", async () => {
    const { aurora, admin, colleague } = await group();
    await saveTemplate(admin, aurora.id, { "template.office.value": HQ });
    const list = await run(profilesLoader, getRequest("/admin/profiles", admin.cookie), {}, admin.viewer);
    const listed = (list.data as { brands: { name: string; setFields: string[] }[] }).brands;
    expect(listed.find((brand) => brand.name === "Aurora Foods")?.setFields).toEqual(["office"]);

    const card = await cardOf(colleague.id);
    const saved = await post(admin, profilesAction, "/admin/profiles", {
      redirectTo: "/admin/profiles",
      intent: "update",
      id: card.id,
      firstName: card.firstName,
      lastName: card.lastName,
      username: card.username,
      email: card.email,
      companyBrandId: String(aurora.id),
      office: "Somewhere else",
      title: "Buyer",
      version: card.updatedAt.toISOString(),
    });
    expect(saved.status, JSON.stringify(saved.data)).toBe(302);
    expect(await cardOf(colleague.id)).toMatchObject({ title: "Buyer", office: HQ });
  });

  it("is taken by a card the moment it joins the brand: made for it, or moved into it", async () => {
    const { aurora, admin, outsider } = await group();
    await saveTemplate(admin, aurora.id, { "template.office.value": HQ, "template.bio.visibility": "private" });

    const form = new FormData();
    for (const [name, value] of Object.entries({
      firstName: "New",
      lastName: "Hire",
      email: "new.hire@example.org",
      companyBrandId: String(aurora.id),
      office: "Porto",
      bio: "Hello",
    })) {
      form.set(name, value);
    }
    const made = await run(createAction, await multipartRequest("/admin/profiles/create", form), {}, admin.viewer);
    expect(made.status, JSON.stringify(made.data)).toBe(302);
    const [hire] = await db.select().from(profiles).where(eq(profiles.email, "new.hire@example.org"));
    expect(hire).toMatchObject({ office: HQ, bio: "Hello" });
    expect(hire?.fieldVisibility.bio).toBe("private");

    const moved = await post(admin, profilesAction, "/admin/profiles", {
      redirectTo: "/admin/profiles",
      intent: "set-brand",
      ids: [outsider.id],
      brandId: String(aurora.id),
    });
    expect(moved.toast?.text).toBe("1 person moved to Aurora Foods.");
    expect((await cardOf(outsider.id)).office).toBe(HQ);
  });

  it("is the brand administrator's to set for their brand only; a value a field cannot hold is refused and changes nothing", async () => {
    const { aurora, borealis, admin, outsider } = await group();
    const lead = await createMember({ firstName: "Lena", lastName: "Lead" });
    await post(admin, profilesAction, "/admin/profiles", {
      redirectTo: "/admin/profiles",
      intent: "brand-administration",
      id: lead.profile.id,
      brandIds: [String(aurora.id)],
    });
    const runner = { ...lead, viewer: { ...lead.viewer, brandIds: [aurora.id] } };

    const elsewhere = await saveTemplate(runner, borealis.id, { "template.office.value": "Taken over" });
    expect(elsewhere.status).toBe(404);
    expect((await cardOf(outsider.id)).office).toBe("Oslo");

    const wrong = await saveTemplate(runner, aurora.id, {
      "template.phone.value": "call reception",
      "template.office.value": HQ,
    });
    expect(wrong.status).toBe(400);
    expect((wrong.data as { fieldErrors: Record<string, string[]> }).fieldErrors["template.phone.value"]?.[0]).toMatch(
      /Enter a phone number/,
    );
    const [unchanged] = await db.select({ template: brands.template }).from(brands).where(eq(brands.id, aurora.id));
    expect(unchanged?.template).toEqual({});

    const own = await saveTemplate(runner, aurora.id, { "template.office.value": HQ });
    expect(own.toast?.text).toBe("Template of Aurora Foods saved: 2 cards updated.");
  });

  it("gives way to the whole site's lock: a field the site locked keeps the site's visibility on every brand", async () => {
    const { aurora, admin, member } = await group();
    await db
      .insert(siteSettings)
      .values({ id: 1, fieldPolicies: { pronouns: { visibility: "public", locked: true } } })
      .onConflictDoUpdate({
        target: siteSettings.id,
        set: { fieldPolicies: { pronouns: { visibility: "public", locked: true } } },
      });
    await saveTemplate(admin, aurora.id, {
      "template.pronouns.visibility": "private",
      "template.pronouns.locked": "on",
    });
    expect((await cardOf(member.profile.id)).fieldVisibility.pronouns).toBe("public");
  });
});
