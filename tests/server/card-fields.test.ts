import { spawnSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { profiles } from "~/.server/platform/db/schema";
import { cardForViewer, getCardByUsername } from "~/.server/profiles/get-card";
import { ProfileFieldsSchema, profileFormInput } from "~/.server/profiles/schemas";
import { signatureOfCard } from "~/.server/profiles/signature";
import { buildVCard } from "~/.server/profiles/vcard";
import { applePassFields, googlePassDetails } from "~/.server/wallet/pass-fields";
import {
  CARD_FIELD_KEYS,
  CARD_FIELDS,
  type CardFieldKey,
  canSee,
  type Viewer,
  type Visibility,
} from "~/lib/card-fields";
import { action as settingsAction } from "~/routes/admin/settings/fields";
import { loader as directoryLoader } from "~/routes/app/directory";
import { action as editAction } from "~/routes/app/profile-edit";
import { loader as cardLoader } from "~/routes/profile/$username";
import { loader as vcardLoader } from "~/routes/profile/contact.vcf";
import { loader as qrLoader } from "~/routes/qr/$username";
import { hasVobject, PYTHON } from "../support/checkers";
import { present } from "../support/present";
import { createMember, formRequest, getRequest, multipartRequest, run, saveOwnCard } from "./helpers";

/**
 * Each detail of a card, with a value no other field holds, set to each
 * visibility it offers and read back through every output as each kind of
 * viewer. A field or output added without a row here fails the type check.
 */
const SENTINELS: Record<CardFieldKey, { form: Record<string, string>; text: string }> = {
  title: { form: { title: "Sentineltitle Lead" }, text: "Sentineltitle" },
  department: { form: { department: "Sentineldepartment" }, text: "Sentineldepartment" },
  office: { form: { office: "Sentineloffice Lisbon" }, text: "Sentineloffice" },
  pronouns: { form: { pronouns: "sentinelpronouns" }, text: "sentinelpronouns" },
  email: { form: {}, text: "(the owner's address)" },
  phone: { form: { phone: "+351 21 555 0199" }, text: "555 0199" },
  languages: { form: { languages: "Sentinellanguages" }, text: "Sentinellanguages" },
  linkedinUrl: { form: { linkedinUrl: "https://www.linkedin.com/in/sentinellinkedin" }, text: "sentinellinkedin" },
  links: {
    form: { "links.0.kind": "github", "links.0.url": "https://github.com/sentinellinks" },
    text: "sentinellinks",
  },
  bio: { form: { bio: "Sentinelbio runs logistics." }, text: "Sentinelbio" },
};

const OUTPUTS = [
  "card page",
  "contact file",
  "QR page",
  "directory",
  "signature",
  "Apple Wallet pass",
  "Google Wallet pass",
] as const;
type Output = (typeof OUTPUTS)[number];

/**
 * Which outputs show each field at all; whatever an output does not show it
 * must never send. A field, or an output, added without its row here fails the
 * type check.
 */
const SHOWN_BY: Record<CardFieldKey, Record<Output, boolean>> = {
  title: {
    "card page": true,
    "contact file": true,
    "QR page": true,
    directory: true,
    signature: true,
    "Apple Wallet pass": true,
    "Google Wallet pass": true,
  },
  department: {
    "card page": true,
    "contact file": true,
    "QR page": false,
    directory: true,
    signature: true,
    "Apple Wallet pass": true,
    "Google Wallet pass": true,
  },
  office: {
    "card page": true,
    "contact file": true,
    "QR page": false,
    directory: true,
    signature: false,
    "Apple Wallet pass": true,
    "Google Wallet pass": false,
  },
  pronouns: {
    "card page": true,
    "contact file": false,
    "QR page": false,
    directory: true,
    signature: false,
    "Apple Wallet pass": false,
    "Google Wallet pass": false,
  },
  email: {
    "card page": true,
    "contact file": true,
    "QR page": false,
    directory: true,
    signature: true,
    "Apple Wallet pass": true,
    "Google Wallet pass": true,
  },
  phone: {
    "card page": true,
    "contact file": true,
    "QR page": false,
    directory: true,
    signature: true,
    "Apple Wallet pass": true,
    "Google Wallet pass": true,
  },
  languages: {
    "card page": true,
    "contact file": false,
    "QR page": false,
    directory: false,
    signature: false,
    "Apple Wallet pass": false,
    "Google Wallet pass": false,
  },
  linkedinUrl: {
    "card page": true,
    "contact file": true,
    "QR page": false,
    directory: true,
    signature: true,
    "Apple Wallet pass": true,
    "Google Wallet pass": false,
  },
  links: {
    "card page": true,
    "contact file": true,
    "QR page": false,
    directory: false,
    signature: true,
    "Apple Wallet pass": false,
    "Google Wallet pass": false,
  },
  bio: {
    "card page": true,
    "contact file": true,
    "QR page": false,
    directory: true,
    signature: false,
    "Apple Wallet pass": false,
    "Google Wallet pass": false,
  },
};

const VIEWERS: Viewer[] = ["visitor", "colleague", "owner", "admin"];

type Member = Awaited<ReturnType<typeof createMember>>;
let owner: Member;
let colleague: Member;
let admin: Member;

async function saveCard(visibility: Visibility) {
  const form = new FormData();
  const [current] = await db.select().from(profiles).where(eq(profiles.id, owner.profile.id));
  form.set("firstName", "Sentinel");
  form.set("lastName", "Owner");
  form.set("username", current!.username);
  form.set("email", current!.email);
  form.set("version", current!.updatedAt.toISOString());
  for (const key of CARD_FIELD_KEYS) {
    for (const [name, value] of Object.entries(SENTINELS[key].form)) form.set(name, value);
    const allowed = (CARD_FIELDS[key].choices as readonly Visibility[]).includes(visibility);
    form.set(`visibility.${key}`, allowed ? visibility : CARD_FIELDS[key].choices.at(-1)!);
  }
  const result = await run(editAction, await multipartRequest("/profile/edit", form, owner), {}, owner.viewer);
  expect(result.status, JSON.stringify(result.data)).toBe(302);
}

function cookieOf(viewer: Viewer) {
  return { visitor: undefined, colleague: colleague.cookie, owner: owner.cookie, admin: admin.cookie }[viewer];
}

function memberOf(viewer: Viewer) {
  return { visitor: undefined, colleague, owner, admin }[viewer];
}

/** What an output sends `viewer`, as text; null where the viewer cannot open it. */
async function read(output: Output, viewer: Viewer): Promise<string | null> {
  const username = owner.profile.username;
  const cookie = cookieOf(viewer);
  switch (output) {
    case "card page":
      return JSON.stringify((await run(cardLoader, getRequest(`/profile/${username}`, cookie), { username })).data);
    case "QR page":
      return JSON.stringify((await run(qrLoader, getRequest(`/qr/${username}`, cookie), { username })).data);
    case "contact file": {
      const response = (await vcardLoader({
        params: { username },
        request: getRequest(`/profile/${username}/contact.vcf`, cookie),
        context: new RouterContextProvider(),
      } as never)) as Response;
      return (await response.text()).replace(/\r\n /g, "");
    }
    case "directory": {
      const member = memberOf(viewer);
      if (!member) return null;
      const result = await run(directoryLoader, getRequest("/directory?q=sentinel", cookie), {}, member.viewer);
      return JSON.stringify(result.data);
    }
    // The signature and the passes are handed to anyone: they are made from what a visitor sees.
    case "signature":
      return viewer === "visitor" ? JSON.stringify(await signatureOfCard(username)) : null;
    case "Apple Wallet pass":
      return viewer === "visitor" ? JSON.stringify(applePassFields(await shownToVisitors(username))) : null;
    case "Google Wallet pass":
      return viewer === "visitor" ? JSON.stringify(googlePassDetails(await shownToVisitors(username))) : null;
  }
}

async function shownToVisitors(username: string) {
  return cardForViewer(present(await getCardByUsername(username), "the card"), null);
}

describe("who sees each detail of a card", () => {
  beforeEach(async () => {
    owner = await createMember();
    // The owner's own address is the email's sentinel.
    SENTINELS.email.text = owner.email;
    colleague = await createMember();
    admin = await createMember({ email: "admin@example.com" });
  });

  for (const visibility of ["public", "colleagues", "private"] as const) {
    it(`shows each detail set to ${visibility} to exactly the viewers it is meant for, in every output`, async () => {
      await saveCard(visibility);
      const [stored] = await db.select().from(profiles).where(eq(profiles.id, owner.profile.id));
      for (const output of OUTPUTS) {
        for (const viewer of VIEWERS) {
          const text = await read(output, viewer);
          if (text === null) continue;
          for (const key of CARD_FIELD_KEYS) {
            const effective = stored!.fieldVisibility[key]!;
            const expected = canSee(viewer, effective) && SHOWN_BY[key][output];
            expect(text.includes(SENTINELS[key].text), `${key} (${effective}) in the ${output} for a ${viewer}`).toBe(
              expected,
            );
          }
        }
      }
    });
  }

  it("finds a card in the directory by exactly the fields declared searchable, and narrows by those declared facets", async () => {
    await saveCard("public");
    for (const key of CARD_FIELD_KEYS) {
      if (key === "email") continue; // the owner's address is found by its name part as well
      const query = SENTINELS[key].text.toLowerCase();
      const result = await run(
        directoryLoader,
        getRequest(`/directory?q=${query}`, colleague.cookie),
        {},
        colleague.viewer,
      );
      const { entries } = result.data as { entries: { username: string }[] };
      const found = entries.some((entry) => entry.username === owner.profile.username);
      expect(found, `a search for the ${key}`).toBe(CARD_FIELDS[key].searchable);
    }
    const result = await run(directoryLoader, getRequest("/directory", colleague.cookie), {}, colleague.viewer);
    const facets = Object.keys((result.data as { facets: object }).facets).filter((facet) => facet !== "brand");
    expect(facets.sort()).toEqual(CARD_FIELD_KEYS.filter((key) => CARD_FIELDS[key].facet).sort());
  });

  it("keeps job title, department and office visible to colleagues: a hidden choice for them is refused", async () => {
    const parsed = ProfileFieldsSchema.safeParse(
      profileFormInput({
        firstName: "A",
        lastName: "B",
        username: "a.b",
        email: "a.b@example.test",
        "visibility.department": "private",
      }),
    );
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("Choose who sees the department from the list");
  });
});

describe("links on a card", () => {
  const parse = (links: Record<string, string>) =>
    ProfileFieldsSchema.safeParse(
      profileFormInput({ firstName: "A", lastName: "B", username: "a.b", email: "a.b@example.test", ...links }),
    );
  const messageFor = (kind: string, url: string) => {
    const parsed = parse({ "links.0.kind": kind, "links.0.url": url });
    return parsed.success ? null : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  };

  it("refuses hostile addresses with a message on the link", () => {
    for (const url of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox"]) {
      expect(messageFor("website", url)?.[0]).toMatch(/^links\.0\.url: Enter the whole address/);
    }
    expect(messageFor("website", "http://example.com/page")?.[0]).toBe(
      "links.0.url: Use an address that starts with https://",
    );
    expect(messageFor("website", "https://example.com/a\r\nX-Injected: 1")?.[0]).toMatch(
      /^links\.0\.url: Write the link/,
    );
    expect(messageFor("website", "https://user:pass@example.com/")?.[0]).toMatch(/^links\.0\.url: Enter the whole/);
  });

  it("refuses a look-alike host for a known kind, and takes the real one and its subdomains", () => {
    for (const url of [
      "https://github.com.evil.example/me",
      "https://evilgithub.com/me",
      "https://xn--gthub-2ra.com/me",
      "https://github.co/me",
    ]) {
      expect(messageFor("github", url), url).toEqual([
        'links.0.url: Use an address at github.com for a GitHub link, or choose "Link"',
      ]);
    }
    expect(messageFor("github", "https://github.com/me")).toBeNull();
    expect(messageFor("youtube", "https://www.youtube.com/@me")).toBeNull();
    expect(messageFor("x", "https://twitter.com/me")).toBeNull();
  });

  it("refuses an unknown kind and more than ten links, and leaves out rows without an address", () => {
    expect(messageFor("myspace", "https://example.com/")).toEqual([
      "links.0.kind: Choose what kind of link this is from the list",
    ]);
    const eleven = Object.fromEntries(
      Array.from({ length: 11 }, (_, index) => [
        [`links.${index}.kind`, "website"],
        [`links.${index}.url`, `https://example.com/${index}`],
      ]).flat(),
    );
    const parsed = parse(eleven);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("Add at most 10 links");
    const blanks = parse({
      "links.0.kind": "github",
      "links.0.url": "",
      "links.1.kind": "website",
      "links.1.url": "https://example.com",
    });
    expect(blanks.data?.links).toEqual([{ kind: "website", url: "https://example.com/" }]);
  });
});

const READER = `
import sys, json, vobject
card = vobject.readOne(sys.stdin.read())
print(json.dumps({
  "org": card.org.value,
  "adr": [card.adr.value.street, card.adr.params.get("TYPE")],
  "urls": [u.value for u in card.contents.get("url", [])],
}))
`;

describe.skipIf(!hasVobject())("the contact file's new details", () => {
  it("writes the department in ORG after the company, the office as a work address and one URL per link, escaped", () => {
    const vcf = buildVCard({
      firstName: "Inês",
      lastName: "Soares",
      organization: "Acme; Sons",
      details: {
        email: "ines@example.test",
        department: "Logistics, EMEA",
        office: "Lisbon\nFloor 3",
        links: [
          { kind: "github", url: "https://github.com/ines" },
          { kind: "website", url: "https://example.com/a;b,c" },
        ],
      },
      cardUrl: "https://cards.example.test/profile/ines",
    });
    expect(vcf).toContain("ORG:Acme\\; Sons;Logistics\\, EMEA\r\n");
    const result = spawnSync(PYTHON, ["-c", READER], { input: vcf, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      org: ["Acme; Sons", "Logistics, EMEA"],
      adr: ["Lisbon\nFloor 3", ["WORK"]],
      urls: ["https://github.com/ines", "https://example.com/a%3Bb%2Cc", "https://cards.example.test/profile/ines"],
    });
  });
});

describe("the company's default and lock per field", () => {
  const policyForm = (policies: Partial<Record<CardFieldKey, { visibility: Visibility; locked?: boolean }>>) =>
    Object.fromEntries(
      CARD_FIELD_KEYS.flatMap((key) => {
        const policy = policies[key] ?? { visibility: CARD_FIELDS[key].visibility };
        return [
          [`fieldPolicy.${key}.visibility`, policy.visibility],
          ...(policy.locked ? [[`fieldPolicy.${key}.locked`, "on"]] : []),
        ];
      }),
    );

  it("a locked field takes the company's visibility on every card, and its owner can change neither it nor its value", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember();
    await db.update(profiles).set({ phone: "+351 21 555 0100" }).where(eq(profiles.id, member.profile.id));
    const save = (fields: Record<string, string>) =>
      run(settingsAction, formRequest("/admin/settings/fields", fields, { cookie: admin.cookie }), {}, admin.viewer);
    const page = async () =>
      JSON.stringify(
        (
          await run(cardLoader, getRequest(`/profile/${member.profile.username}`), {
            username: member.profile.username,
          })
        ).data,
      );

    expect(await page()).toContain("555 0100");
    expect((await save(policyForm({ phone: { visibility: "colleagues", locked: true } }))).status).toBe(302);
    expect(await page()).not.toContain("555 0100");

    // The owner's form tries both: the phone stays as it was, kept to colleagues.
    const saved = await saveOwnCard(member, { phone: "+351 21 555 9999", "visibility.phone": "public" });
    expect(saved.status).toBe(302);
    const [after] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    expect(after).toMatchObject({ phone: "+351 21 555 0100" });
    expect(after?.fieldVisibility.phone).toBe("colleagues");

    // Unlocked, a default applies to cards whose owner chose nothing.
    expect((await save(policyForm({ phone: { visibility: "private" } }))).status).toBe(302);
    const [open] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    expect(open?.fieldVisibility.phone).toBe("private");
  });

  it("refuses a default a field does not offer with a message, and saves nothing", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const result = await run(
      settingsAction,
      formRequest("/admin/settings/fields", policyForm({ office: { visibility: "private" } }), {
        cookie: admin.cookie,
      }),
      {},
      admin.viewer,
    );
    expect(result.status).toBe(400);
    expect(
      (result.data as { fieldErrors: Record<string, string[]> }).fieldErrors["fieldPolicy.office.visibility"],
    ).toEqual(["Choose who sees the office from the list"]);
  });
});
