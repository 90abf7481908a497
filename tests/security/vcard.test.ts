import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { brands, profiles } from "~/.server/platform/db/schema";
import { action as brandsAction } from "~/routes/admin/brands";
import { action as editAction } from "~/routes/app/profile-edit";
import { loader as vcardLoader } from "~/routes/profile/contact.vcf";
import { createMember, getRequest, multipartRequest, run } from "../server/helpers";

/**
 * Contact files read back by an independent, strict reader: Debian's
 * python3-vobject. Each file must hold exactly one card with exactly the
 * expected properties, whatever the card and brand fields contain.
 */
const PYTHON = "/usr/bin/python3";
const READER = `
import json, sys, vobject
cards = list(vobject.readComponents(sys.stdin.read()))
out = []
for card in cards:
    props = []
    for child in card.getChildren():
        value = child.value
        if child.name == "N":
            value = {"family": value.family, "given": value.given}
        elif child.name == "ORG":
            value = list(value)
        props.append([child.name, value])
    out.append(props)
print(json.dumps(out))
`;
const HAVE_VOBJECT = fs.existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import vobject"]).status === 0;
if (!HAVE_VOBJECT) console.warn("SKIPPED: the vCard reader needs python3-vobject (apt-get install python3-vobject)");

function readCards(vcf: string): [string, unknown][][] {
  const result = spawnSync(PYTHON, ["-c", READER], { input: vcf, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`vobject could not read the file: ${result.stderr}\n${vcf}`);
  return JSON.parse(result.stdout);
}

async function contactFile(username: string) {
  const response = (await vcardLoader({
    params: { username },
    request: getRequest(`/profile/${username}/contact.vcf`),
    context: new RouterContextProvider(),
  } as never)) as Response;
  expect(response.status).toBe(200);
  return response.text();
}

function sorted(props: [string, unknown][]) {
  return [...props].sort((a, b) => (a[0] + JSON.stringify(a[1])).localeCompare(b[0] + JSON.stringify(b[1])));
}

const HOSTILE = {
  firstName: `Ann;Marie,\\Jr: "O'Neil"`,
  lastName: "Smith END:VCARD BEGIN:VCARD",
  title: "CEO; TEL:+1 555 9999, FN:IT Helpdesk",
  phone: "+1 (555) 010-0000",
  bio: "Line one\nEND:VCARD\nBEGIN:VCARD\nFN:IT Helpdesk\nTEL:+1 555 6666\nLine; with, separators \\ and ü 😀",
  linkedinUrl: "https://www.linkedin.com/in/ann?x=1;TEL=+15556666,FN=x",
  brand: "Acme, Inc.; TEL:+1 555 7777\\",
};

describe.skipIf(!HAVE_VOBJECT)("contact files cannot be forged", () => {
  it("hostile values saved through the forms give one card with exactly the expected properties", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const brandForm = new FormData();
    for (const [name, value] of Object.entries({
      intent: "create",
      name: HOSTILE.brand,
      primaryColor: "#3b82f6",
      secondaryColor: "#8b5cf6",
      website: "https://acme.example/a;b,c",
      active: "on",
    })) {
      brandForm.set(name, value);
    }
    expect(
      (await run(brandsAction, await multipartRequest("/admin/brands", brandForm, admin), {}, admin.viewer)).status,
    ).toBe(302);
    const [brand] = await db.select().from(brands);

    const member = await createMember();
    const [card] = await db.select().from(profiles).where(eq(profiles.id, member.viewer.profile!.id));
    const form = new FormData();
    for (const [name, value] of Object.entries({
      firstName: HOSTILE.firstName,
      lastName: HOSTILE.lastName,
      username: card!.username,
      email: member.email,
      title: HOSTILE.title,
      phone: HOSTILE.phone,
      bio: HOSTILE.bio,
      linkedinUrl: HOSTILE.linkedinUrl,
      companyBrandId: String(brand!.id),
    })) {
      form.set(name, value);
    }
    const saved = await run(editAction, await multipartRequest("/profile/edit", form, member), {}, member.viewer);
    expect(saved.status, JSON.stringify(saved.data)).toBe(302);

    const cards = readCards(await contactFile(card!.username));
    expect(cards).toHaveLength(1);
    const linkedin = new URL(HOSTILE.linkedinUrl).href.replace(/;/g, "%3B").replace(/,/g, "%2C");
    expect(sorted(cards[0]!)).toEqual(
      sorted([
        ["VERSION", "3.0"],
        ["N", { family: HOSTILE.lastName, given: HOSTILE.firstName }],
        ["FN", `${HOSTILE.firstName} ${HOSTILE.lastName}`],
        ["EMAIL", member.email],
        ["TEL", HOSTILE.phone],
        ["ORG", [HOSTILE.brand]],
        ["TITLE", HOSTILE.title],
        ["URL", linkedin],
        ["NOTE", HOSTILE.bio],
        ["URL", `http://localhost:3000/profile/${card!.username}`],
      ]),
    );
  });

  it("line breaks and control characters stored before these rules still give one card and no extra property", async () => {
    const [brand] = await db.insert(brands).values({ name: "Evil\r\nTEL:+1 555 1111\r\nEND:VCARD" }).returning();
    await db.insert(profiles).values({
      email: "old@example.org\r\nTEL:+1 555 2222",
      firstName: "Old\r\nFN:IT Helpdesk",
      lastName: "Data\u0007\u001b[31m",
      username: "old.data",
      title: "T\nEND:VCARD\nBEGIN:VCARD\nFN:Second",
      phone: "+1 555 0100\r\nTEL:+1 555 3333",
      bio: "Bio\rEND:VCARD",
      linkedinUrl: "https://linkedin.example/in/x\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:IT Helpdesk\r\nTEL:+1 555 4444",
      companyBrandId: brand!.id,
    });
    const vcf = await contactFile("old.data");
    const cards = readCards(vcf);
    expect(cards).toHaveLength(1);
    const names = cards[0]!.map(([name]) => name).sort();
    expect(names).toEqual(["EMAIL", "FN", "N", "NOTE", "ORG", "TEL", "TITLE", "URL", "URL", "VERSION"]);
    for (const [, value] of cards[0]!) expect(JSON.stringify(value)).not.toMatch(/\\u0007|\\u001b/);
    expect(vcf.match(/^BEGIN:VCARD/gm)).toHaveLength(1);
  });

  it("the forms refuse control characters and line breaks in one-line card and brand fields", async () => {
    const member = await createMember();
    const [card] = await db.select().from(profiles).where(eq(profiles.id, member.viewer.profile!.id));
    for (const [field, value] of [
      ["firstName", "Ann\r\nTEL:+1 555 1234"],
      ["lastName", "Lee\u0000"],
      ["title", "Boss\nFN:x"],
      ["linkedinUrl", "https://linkedin.com/in/x\nEND:VCARD"],
      ["linkedinUrl", "https://linkedin.com/in/x\tTEL:1"],
      ["phone", "+1 555\n0100"],
    ] as const) {
      const form = new FormData();
      for (const [name, fieldValue] of Object.entries({
        firstName: card!.firstName,
        lastName: card!.lastName,
        username: card!.username,
        email: member.email,
        [field]: value,
      })) {
        form.set(name, fieldValue);
      }
      const result = await run(editAction, await multipartRequest("/profile/edit", form, member), {}, member.viewer);
      expect(result.status, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect((result.data as { fieldErrors: Record<string, string[]> }).fieldErrors[field]).toBeTruthy();
    }
    const [after] = await db.select().from(profiles).where(eq(profiles.id, card!.id));
    expect(after).toEqual(card);
  });
});

describe.skipIf(!HAVE_VOBJECT)("a name written family name first", () => {
  it("is the contact's display name in its own order, with its family and given parts where phones look for them", async () => {
    const member = await createMember({ firstName: "浩", lastName: "佐藤", email: "hiroshi.sato@example.com" });
    const [card] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    const props = readCards(await contactFile(card!.username))[0] ?? [];
    const fn = props.find(([name]) => name === "FN")?.[1];
    const n = props.find(([name]) => name === "N")?.[1];
    expect(fn).toBe("佐藤浩");
    expect(n).toMatchObject({ family: "佐藤", given: "浩" });
    // Its address is how the person writes the name in Latin letters: the card's address follows it.
    expect(card!.username).toBe("hiroshi.sato");
  });
});
