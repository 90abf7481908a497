import { describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { brands, profiles } from "~/.server/platform/db/schema";
import { DIRECTORY_PAGE_SIZE, parseDirectoryQuery, searchDirectory } from "~/.server/profiles/directory";
import { loader as directoryLoader } from "~/routes/app/directory";
import { createMember, getRequest, present, run } from "./helpers";

type Person = Partial<typeof profiles.$inferInsert> & { firstName: string; lastName: string };

async function people(list: Person[]) {
  return db
    .insert(profiles)
    .values(
      list.map((person, index) => ({
        email: `${person.firstName}.${person.lastName}.${index}@example.org`.toLowerCase().replace(/[^a-z0-9.@]/g, ""),
        username: `${person.firstName}.${person.lastName}.${index}`.toLowerCase().replace(/[^a-z0-9.]/g, ""),
        ...person,
      })),
    )
    .returning();
}

async function search(
  q: string,
  extra: Partial<{ brand: number; status: "claimed" | "unclaimed"; page: number }> = {},
) {
  const url = new URL("http://localhost/directory");
  url.searchParams.set("q", q);
  for (const [key, value] of Object.entries(extra)) url.searchParams.set(key, String(value));
  return searchDirectory(parseDirectoryQuery(url, { canFilterStatus: true }), {
    includeClaimStatus: true,
    viewer: { user: { id: "an-administrator" }, role: "admin" },
  });
}

const names = (result: Awaited<ReturnType<typeof search>>) =>
  result.entries.map((entry) => `${entry.firstName} ${entry.lastName}`);

describe("directory search", () => {
  it("finds people by any part of first name, last name, full name, email, username, job title or bio, in any case", async () => {
    await people([
      { firstName: "Ada", lastName: "Lovelace", title: "Analyst", bio: "Writes the first programs" },
      { firstName: "Grace", lastName: "Hopper", username: "rear.admiral", email: "grace@navy.example" },
      { firstName: "Alan", lastName: "Turing", title: "Codebreaker" },
    ]);
    expect(names(await search("ada"))).toEqual(["Ada Lovelace"]);
    expect(names(await search("LOVE"))).toEqual(["Ada Lovelace"]);
    expect(names(await search("ada love"))).toEqual(["Ada Lovelace"]);
    expect(names(await search("NAVY.ex"))).toEqual(["Grace Hopper"]);
    expect(names(await search("admiral"))).toEqual(["Grace Hopper"]);
    expect(names(await search("codebreak"))).toEqual(["Alan Turing"]);
    expect(names(await search("FIRST PROGRAMS"))).toEqual(["Ada Lovelace"]);
    expect(names(await search("nobody"))).toEqual([]);
  });

  it("finds a word deep in a long biography, and sends a tile only the start of it", async () => {
    const bio = `${"Leads the northern sales team and mentors new colleagues. ".repeat(20)}Speaks Icelandic.`;
    await people([{ firstName: "Long", lastName: "Story", bio }]);
    const [entry] = (await search("icelandic")).entries;
    expect(entry?.bio).toBe(bio.slice(0, 280));
  });

  it("ignores accents both ways", async () => {
    await people([
      { firstName: "Zoë", lastName: "Laurent" },
      { firstName: "Jose", lastName: "Garcia" },
    ]);
    expect(names(await search("zoe"))).toEqual(["Zoë Laurent"]);
    expect(names(await search("ZOË"))).toEqual(["Zoë Laurent"]);
    expect(names(await search("garcía"))).toEqual(["Jose Garcia"]);
  });

  it("treats % and _ as the characters they are, not wildcards", async () => {
    await people([
      { firstName: "Percy", lastName: "Cent", bio: "Grew sales 100% in a year" },
      { firstName: "Una", lastName: "Derscore" },
    ]);
    expect(names(await search("%"))).toEqual(["Percy Cent"]);
    expect(names(await search("_"))).toEqual([]);
  });

  it("orders by first name and combines the search with the brand and status filters", async () => {
    const north = present((await db.insert(brands).values({ name: "North" }).returning())[0], "the North brand");
    const south = present((await db.insert(brands).values({ name: "South" }).returning())[0], "the South brand");
    const member = await createMember({ firstName: "Sam", lastName: "Smith" });
    await db.update(profiles).set({ companyBrandId: north.id });
    await people([
      { firstName: "Sara", lastName: "Smith", companyBrandId: north.id },
      { firstName: "Abe", lastName: "Smith", companyBrandId: north.id },
      { firstName: "Sue", lastName: "Smith", companyBrandId: south.id },
      { firstName: "Tom", lastName: "Jones", companyBrandId: north.id },
    ]);
    expect(names(await search("smith"))).toEqual(["Abe Smith", "Sam Smith", "Sara Smith", "Sue Smith"]);
    expect(names(await search("smith", { brand: north.id }))).toEqual(["Abe Smith", "Sam Smith", "Sara Smith"]);
    expect(names(await search("smith", { brand: north.id, status: "claimed" }))).toEqual(["Sam Smith"]);
    expect(names(await search("smith", { brand: north.id, status: "unclaimed" }))).toEqual(["Abe Smith", "Sara Smith"]);
    expect((await search("", { brand: south.id })).total).toBe(1);
    expect(member.viewer.profile).not.toBeNull();
  });

  it("pages through results with the total, and a page past the end shows the last one", async () => {
    await people(
      Array.from({ length: DIRECTORY_PAGE_SIZE + 1 }, (_, index) => ({
        firstName: `Person${String(index).padStart(2, "0")}`,
        lastName: "Paged",
      })),
    );
    const first = await search("paged");
    expect(first).toMatchObject({ total: 25, page: 1, pageCount: 2 });
    expect(first.entries).toHaveLength(DIRECTORY_PAGE_SIZE);
    expect(first.entries[0]?.firstName).toBe("Person00");
    const second = await search("paged", { page: 2 });
    expect(second.entries.map((entry) => entry.firstName)).toEqual(["Person24"]);
    const beyond = await search("paged", { page: 99 });
    expect(beyond.page).toBe(2);
    expect(beyond.entries).toHaveLength(1);
  });
});

describe("who sees claim status", () => {
  it("never sends a member claim status, even when they ask for the status filter", async () => {
    await people([{ firstName: "Una", lastName: "Prepared" }]);
    const member = await createMember();
    const result = await run(
      directoryLoader,
      getRequest("/directory?status=unclaimed", member.cookie),
      {},
      member.viewer,
    );
    const data = result.data as { entries: Record<string, unknown>[]; canSeeClaims: boolean; total: number };
    expect(data.canSeeClaims).toBe(false);
    expect(data.total).toBe(2); // the filter was ignored
    for (const entry of data.entries) expect(entry).not.toHaveProperty("claimed");
    expect(JSON.stringify(data)).not.toMatch(/"claimed"|userId|user_id/);
  });

  it("sends the administrator each card's status and honours the filter", async () => {
    await people([{ firstName: "Una", lastName: "Prepared" }]);
    const admin = await createMember({ email: "admin@example.com" });
    const result = await run(
      directoryLoader,
      getRequest("/directory?status=unclaimed", admin.cookie),
      {},
      admin.viewer,
    );
    const data = result.data as { entries: { firstName: string; claimed: boolean }[] };
    expect(data.entries).toEqual([expect.objectContaining({ firstName: "Una", claimed: false })]);
  });
});

describe("directory facets", () => {
  type Loaded = {
    total: number;
    entries: { firstName: string }[];
    facets: Record<"brand" | "department" | "office", { value: string | number; label: string; count: number }[]>;
  };
  const load = async (search: string, viewer: Awaited<ReturnType<typeof createMember>>) =>
    (await run(directoryLoader, getRequest(`/directory${search}`, viewer.cookie), {}, viewer.viewer)).data as Loaded;

  it("narrows by department and office together, from the URL, each with the number of people it has", async () => {
    const [acme] = await db.insert(brands).values({ name: "Acme Freight" }).returning();
    await people([
      { firstName: "Lia", lastName: "One", department: "Logistics", office: "Lisbon", companyBrandId: acme!.id },
      { firstName: "Leo", lastName: "Two", department: "Logistics", office: "Lisbon" },
      { firstName: "Lou", lastName: "Three", department: "Logistics", office: "Porto" },
      { firstName: "Sam", lastName: "Four", department: "Sales", office: "Lisbon" },
      { firstName: "Gone", lastName: "Five", department: "Logistics", office: "Lisbon", deactivatedAt: new Date() },
    ]);
    const member = await createMember();
    const all = await load("", member);
    expect(all.facets.department).toEqual([
      { value: "Logistics", label: "Logistics", count: 3 },
      { value: "Sales", label: "Sales", count: 1 },
    ]);
    expect(all.facets.office).toEqual([
      { value: "Lisbon", label: "Lisbon", count: 3 },
      { value: "Porto", label: "Porto", count: 1 },
    ]);
    expect(all.facets.brand).toEqual([{ value: acme!.id, label: "Acme Freight", count: 1 }]);

    // Each facet is counted with the other filters: Lisbon's departments, and Logistics' offices.
    const both = await load("?department=Logistics&office=Lisbon", member);
    expect(both.entries.map((entry) => entry.firstName).sort()).toEqual(["Leo", "Lia"]);
    expect(both.total).toBe(2);
    expect(both.facets.department).toEqual([
      { value: "Logistics", label: "Logistics", count: 2 },
      { value: "Sales", label: "Sales", count: 1 },
    ]);
    expect(both.facets.office).toEqual([
      { value: "Lisbon", label: "Lisbon", count: 2 },
      { value: "Porto", label: "Porto", count: 1 },
    ]);

    // A value nobody has yet is still offered while chosen, with 0; the search finds no one.
    const none = await load("?office=Madrid", member);
    expect(none.total).toBe(0);
    expect(none.facets.office).toContainEqual({ value: "Madrid", label: "Madrid", count: 0 });
  });

  it("answers a facet value with control characters 400 with a message, not a search", async () => {
    const member = await createMember();
    const result = await run(
      directoryLoader,
      getRequest("/directory?department=a%0Ab", member.cookie),
      {},
      member.viewer,
    );
    expect(result.status).toBe(400);
  });
});

describe("the phone directory's A–Z index", () => {
  it("leads each letter to the page its first first name is on, within the filters; a search has none", async () => {
    const [acme] = await db.insert(brands).values({ name: "Acme Freight" }).returning();
    // 30 people whose names begin with A, then 3 with C (one of them at Acme), then one Zoë: C begins on page 2.
    await people([
      ...Array.from({ length: 30 }, (_, index) => ({
        firstName: `Ada${String(index).padStart(2, "0")}`,
        lastName: "A",
      })),
      { firstName: "Cai", lastName: "C", companyBrandId: acme!.id },
      { firstName: "Cleo", lastName: "C" },
      { firstName: "Cy", lastName: "C" },
      { firstName: "Zoë", lastName: "Z" },
    ]);
    const member = await createMember({ firstName: "Mira", lastName: "Member" });
    type Loaded = { letters: { letter: string; page: number | null }[]; entries: { firstName: string }[] };
    const load = async (search: string) =>
      (await run(directoryLoader, getRequest(`/directory${search}`, member.cookie), {}, member.viewer)).data as Loaded;
    const pages = (loaded: Loaded) =>
      Object.fromEntries(
        loaded.letters.filter((entry) => entry.page !== null).map((entry) => [entry.letter, entry.page]),
      );

    const all = await load("");
    expect(all.letters).toHaveLength(26);
    expect(pages(all)).toEqual({ A: 1, C: 2, M: 2, Z: 2 });
    const second = await load("?page=2");
    expect(second.entries[30 - DIRECTORY_PAGE_SIZE]?.firstName).toBe("Cai");

    expect(pages(await load(`?brand=${acme!.id}`))).toEqual({ C: 1 });
    expect((await load("?q=cleo")).letters).toEqual([]);
  });
});
