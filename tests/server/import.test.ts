import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { claimNextImport, runImport, runPendingImports } from "~/.server/imports/run";
import { db, rowsOf } from "~/.server/platform/db/client";
import {
  auditLog,
  brandDomains,
  brands,
  importRows,
  imports,
  invitations,
  profiles,
} from "~/.server/platform/db/schema";
import { type RealtimeEvent, subscribe } from "~/.server/platform/realtime";
import { MANAGER_MESSAGES } from "~/.server/profiles/managers";
import { action as uploadAction } from "~/routes/admin/import";
import { action as detailAction } from "~/routes/admin/import-detail";
import { loader as reportLoader } from "~/routes/admin/import-report.csv";
import { loader as templateLoader } from "~/routes/admin/import-template.csv";
import { expectConsoleError } from "../support/console";
import {
  createMember,
  formRequest,
  getRequest,
  insertCard,
  listenForEvents,
  multipartRequest,
  present,
  run,
} from "./helpers";
import { importFile, type Preview, preview, submit, upload } from "./importing";

const BOM = "\uFEFF";

type Admin = Awaited<ReturnType<typeof createMember>>;

async function admin(): Promise<Admin> {
  return createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
}

const cardsByEmail = async (email: string) =>
  db.select().from(profiles).where(sql`lower(${profiles.email}) = ${email.toLowerCase()}`);

/** Excel in a European locale: BOM, semicolons, CRLF, a quoted semicolon, non-Latin names. */
const EXCEL_FILE = [
  "Vorname;Nachname;E-Mail;Position;Firma;Mobil",
  'Łukasz;Wiśniewski;Lukasz.W@Example.org;"Leiter; Vertrieb";northwind traders;+48 22 123 45 67',
  "王;芳;wang.fang@example.org;工程师;NORTHWIND TRADERS;",
  "Ελένη;Παπαδοπούλου;eleni@example.org;;;",
  "Zoë;Laurent;zoe.laurent@example.org;Designer;;",
].join("\r\n");

describe("bulk import of cards from a CSV file", () => {
  it("imports Excel's file: new unclaimed cards with generated usernames, brands matched without regard to case, in the directory search", async () => {
    const who = await admin();
    await db.insert(brands).values({ name: "Northwind Traders" });
    const id = await upload(who, `${BOM}${EXCEL_FILE}\r\n`);
    const before = await preview(who, id);
    expect(before.preview.counts).toEqual({ create: 4, update: 0, unchanged: 0, skip: 0, error: 0 });
    expect(before.preview.rows.map((row) => row.outcome)).toEqual(["create", "create", "create", "create"]);

    expect((await submit(who, id, "start")).status).toBe(302);
    expect(await runPendingImports()).toBe(1);

    const [record] = await db.select().from(imports).where(eq(imports.id, id));
    expect(record).toMatchObject({ status: "done", processedRows: 4, createdCards: 4, failedRows: 0 });
    // The audit log says who started which file.
    const entries = await db.select().from(auditLog);
    expect(entries).toMatchObject([
      {
        action: "import",
        targetKind: "import",
        targetId: id,
        targetLabel: "people.csv",
        actorEmail: "admin@example.com",
      },
    ]);
    expect(entries[0]?.changes).toMatchObject({ rows: [null, 4], createBrands: [null, false] });
    const [lukasz] = await cardsByEmail("lukasz.w@example.org");
    expect(lukasz).toMatchObject({
      firstName: "Łukasz",
      lastName: "Wiśniewski",
      username: "lukasz.wisniewski",
      title: "Leiter; Vertrieb",
      phone: "+48 22 123 45 67",
      userId: null,
    });
    const [northwind] = await db.select().from(brands).where(eq(brands.name, "Northwind Traders"));
    expect(lukasz?.companyBrandId).toBe(northwind?.id);
    const [wang] = await cardsByEmail("wang.fang@example.org");
    expect(wang).toMatchObject({ firstName: "王", lastName: "芳", companyBrandId: northwind?.id });
    expect(wang?.username).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
    const [eleni] = await cardsByEmail("eleni@example.org");
    // Transliterated as the create form does it.
    expect(eleni?.username).toBe("eleni.papadopoyloy");
    // The directory's search finds the new cards.
    const found = await db
      .select({ id: profiles.id })
      .from(profiles)
      .where(sql`${profiles.searchText} like '%wisniewski%'`);
    expect(found.map((row) => row.id)).toEqual([lukasz?.id]);
  });

  it("puts a row without a brand into the brand of its address's domain, and a row that names one into that one", async () => {
    const who = await admin();
    const [aurora, borealis] = await db
      .insert(brands)
      .values([{ name: "Aurora Foods" }, { name: "Borealis Travel" }])
      .returning();
    await db.insert(brandDomains).values({ domain: "aurora.example", brandId: present(aurora, "the brand").id });
    await importFile(
      who,
      [
        "First name,Last name,Email,Brand",
        "Ana,Ruiz,ana.ruiz@aurora.example,",
        "Ben,Ode,ben.ode@aurora.example,Borealis Travel",
      ].join("\n"),
    );
    expect((await cardsByEmail("ana.ruiz@aurora.example"))[0]?.companyBrandId).toBe(aurora?.id);
    expect((await cardsByEmail("ben.ode@aurora.example"))[0]?.companyBrandId).toBe(borealis?.id);
  });

  it("imports Google Sheets' file: commas, LF, a bio with line breaks and doubled quotes kept, a job title with a line break refused", async () => {
    const who = await admin();
    const file = [
      "Given name,Family name,Email,Bio,Job title",
      'Zoë,Laurent,zoe.sheets@example.org,"Line one\nLine two with ""quotes""",Designer',
      'Ελένη,Βασιλείου,eleni.sheets@example.org,,"Two\nlines"',
      "",
    ].join("\n");
    await importFile(who, file);
    const [zoe] = await cardsByEmail("zoe.sheets@example.org");
    expect(zoe).toMatchObject({ firstName: "Zoë", bio: 'Line one\nLine two with "quotes"', title: "Designer" });
    expect(await cardsByEmail("eleni.sheets@example.org")).toEqual([]);
    const [record] = await db.select().from(imports);
    expect(record).toMatchObject({ createdCards: 1, failedRows: 1 });
  });

  it("imports the exports of Outlook, Microsoft Entra ID and Google Contacts as those tools mean their columns, and names the format", async () => {
    const who = await admin();
    const exported = (name: string) => fs.readFileSync(path.join("tests/fixtures/exports", name), "utf8");

    const outlook = await upload(who, exported("outlook-classic.csv"));
    const seen = await preview(who, outlook);
    expect(seen.format).toBe("an Outlook export");
    // The preview shows every mapped field, so a wrong column is seen before any card is made.
    expect(seen.preview.rows[0]?.fields).toEqual(
      expect.arrayContaining([
        { label: "Job title", value: "Principal Scientist" },
        { label: "Phone", value: "+234 803 123 4567" },
        { label: "Company / brand", value: "Northwind" },
      ]),
    );
    expect((await submit(who, outlook, "start", { createBrands: true })).status).toBe(302);
    await runPendingImports();
    expect((await cardsByEmail("amara.okafor@northwind.example"))[0]).toMatchObject({
      title: "Principal Scientist",
      phone: "+234 803 123 4567",
      department: "Research",
      office: "Lagos",
    });

    await importFile(who, exported("entra-users.csv"));
    expect((await cardsByEmail("priya.nair@northwind.example"))[0]).toMatchObject({
      firstName: "Priya",
      title: "Data Analyst",
      phone: "+91 98765 43210",
    });
    // Disabled in the directory: skipped, not counted as an error, and the report says why.
    expect(await cardsByEmail("gone.user@northwind.example")).toEqual([]);
    const [disabled] = await db.select().from(importRows).where(eq(importRows.outcome, "skipped"));
    expect(disabled?.detail).toBe("Skipped: the account is disabled in the directory this file came from");
    const [entra] = await db
      .select()
      .from(imports)
      .where(eq(imports.id, present(disabled, "the skipped row").importId));
    expect(entra).toMatchObject({ skippedRows: 1, failedRows: 0 });

    await importFile(who, exported("google-contacts.csv"));
    expect((await cardsByEmail("ines.duarte@northwind.example"))[0]).toMatchObject({
      title: "Head of Design",
      department: "Product",
      phone: "+351 912 345 678",
    });
  });

  it("offers to invite the new people once the import is done, confirms with their count and names, and invites each once", async () => {
    const who = await admin();
    const already = await insertCard({ email: "kept@example.org", firstName: "Kept", lastName: "Card" });
    const id = await importFile(
      who,
      [
        "First name,Last name,Email",
        "Ada,Lovelace,ada@example.org",
        "Grace,Hopper,grace@example.org",
        `Kept,Card,${already.email}`,
      ].join("\n"),
    );
    const offered = (await preview(who, id)) as Preview & { newPeople: { count: number; firstNames: string[] } };
    expect(offered.newPeople).toMatchObject({ count: 2, firstNames: ["Ada", "Grace"] });

    const request = formRequest(`/admin/import/${id}`, { intent: "invite-new" });
    const sent = await run(detailAction, request, { id }, who.viewer);
    expect(sent.status).toBe(302);
    const invited = await db.select({ id: invitations.profileId }).from(invitations);
    expect(invited).toHaveLength(2);
    expect(invited.map((row) => row.id)).not.toContain(already.id);
    // Asked again, nobody is invited twice: the offer is gone.
    const after = (await preview(who, id)) as Preview & { newPeople: { count: number } };
    expect(after.newPeople.count).toBe(0);
    await run(detailAction, formRequest(`/admin/import/${id}`, { intent: "invite-new" }), { id }, who.viewer);
    expect(await db.select().from(invitations)).toHaveLength(2);
  });

  it("remembers the mapping an administrator chose for the next file with the same header row", async () => {
    const who = await admin();
    const file = (email: string) => `Name,Surname,Mail,Role\nAda,Lovelace,${email},Analyst\n`;
    const first = await upload(who, file("ada.first@example.org"));
    expect((await preview(who, first)).settings.mapping).toEqual(["", "lastName", "email", "title"]);
    expect((await submit(who, first, "start", { mapping: ["firstName", "lastName", "email", "title"] })).status).toBe(
      302,
    );
    await runPendingImports();
    const next = await upload(who, file("ada.next@example.org"));
    expect((await preview(who, next)).settings.mapping).toEqual(["firstName", "lastName", "email", "title"]);
    // Another header row is guessed afresh.
    const other = await upload(who, "Name,Surname,Mail\nAda,Lovelace,ada.other@example.org\n");
    expect((await preview(who, other)).settings.mapping).toEqual(["", "lastName", "email"]);
  });

  it("numbers generated usernames as the create form does, leaving the ones the file asks for to their rows", async () => {
    const who = await admin();
    await insertCard({ email: "first.john@example.org", username: "john.smith" });
    const file = [
      "First name,Last name,Email,Username",
      "John,Smith,john.one@example.org,",
      "John,Smith,john.two@example.org,",
      "Jane,Doe,jane.one@example.org,",
      "Other,Person,other@example.org,jane.doe",
    ].join("\n");
    await importFile(who, file);
    const names = await db
      .select({ email: profiles.email, username: profiles.username })
      .from(profiles)
      .where(
        sql`${profiles.email} in ('john.one@example.org', 'john.two@example.org', 'jane.one@example.org', 'other@example.org')`,
      )
      .orderBy(profiles.email);
    expect(names).toEqual([
      { email: "jane.one@example.org", username: "jane.doe2" },
      { email: "john.one@example.org", username: "john.smith2" },
      { email: "john.two@example.org", username: "john.smith3" },
      { email: "other@example.org", username: "jane.doe" },
    ]);
  });

  it("says per row what is wrong and imports only the good rows; the report lists the others with their values, formulas neutralised", async () => {
    const who = await admin();
    await insertCard({ email: "taken@example.org", username: "taken.name" });
    const file = [
      "First name,Last name,Email,Phone,Company,Username,LinkedIn",
      "Good,Person,good@example.org,,,,",
      "Bad,Email,not-an-email,,,,",
      "Twice,Once,dup@example.org,,,,",
      "Twice,Again,DUP@example.org,,,,",
      "Brand,Less,brandless@example.org,,Nowhere Inc,,",
      "Taken,Username,taken.user@example.org,,,taken.name,",
      "Bad,Phone,bad.phone@example.org,call me,,,",
      ",Nofirst,nofirst@example.org,,,,",
      "=HYPERLINK(1),Formula,formula@example.org,,,,javascript:alert(1)",
    ].join("\n");
    const id = await upload(who, file);
    const { preview: before } = await preview(who, id);
    const byRow = new Map(before.rows.map((row) => [row.rowNumber, row]));
    expect(byRow.get(2)?.outcome).toBe("create");
    expect(byRow.get(3)?.detail).toBe("Enter an email address such as name@company.com");
    expect(byRow.get(4)?.outcome).toBe("create");
    expect(byRow.get(5)?.detail).toMatch(/^The same email as row 4/);
    expect(byRow.get(6)?.detail).toMatch(/^Unknown brand "Nowhere Inc"/);
    expect(byRow.get(7)?.detail).toBe("Username already exists. Please choose a different one.");
    expect(byRow.get(8)?.detail).toMatch(/^Enter a phone number/);
    expect(byRow.get(9)?.detail).toBe("Enter a first name");
    expect(byRow.get(10)?.detail).toMatch(/^Enter the whole address, starting with https:\/\//);
    expect(before.counts).toEqual({ create: 2, update: 0, unchanged: 0, skip: 0, error: 7 });
    const errorsOnly = await preview(who, id, "?show=errors");
    expect(errorsOnly.preview.rows.map((row) => row.rowNumber)).toEqual([3, 5, 6, 7, 8, 9, 10]);

    await submit(who, id, "start");
    await runPendingImports();
    expect((await cardsByEmail("good@example.org")).length).toBe(1);
    expect((await cardsByEmail("dup@example.org"))[0]?.lastName).toBe("Once");
    expect(await cardsByEmail("bad.phone@example.org")).toEqual([]);
    expect(await db.select().from(brands)).toEqual([]);

    const report = await reportLoader({
      request: getRequest(`/admin/import/${id}/report.csv`, who.cookie),
      params: { id },
      context: undefined as never,
    } as never);
    const response = report as Response;
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="people-not-imported.csv"');
    const text = await response.text();
    const rows = parse(text.replace(BOM, "")) as string[][];
    expect(rows[0]).toEqual([
      "Row",
      "Reason",
      "First name",
      "Last name",
      "Email",
      "Phone",
      "Company",
      "Username",
      "LinkedIn",
    ]);
    expect(rows.slice(1).map((row) => row[0])).toEqual(["3", "5", "6", "7", "8", "9", "10"]);
    expect(rows.flat()).toContain("'=HYPERLINK(1)");
    expect(rows.flat().filter((cell) => cell.startsWith("="))).toEqual([]);
  });

  it("keeps a member's own edits unless the administrator ticks the field, and a second import of the same file changes nothing", async () => {
    const who = await admin();
    const member = await createMember({ firstName: "Mira", lastName: "Okafor" });
    await db.update(profiles).set({ title: "Head of Sales (my own words)" }).where(eq(profiles.id, member.profile.id));
    const file = `First name,Last name,Email,Job title,Phone\nMira,Okafor,${member.email.toUpperCase()},Sales,+1 555 0100\nNew,Person,new.person@example.org,Engineer,\n`;

    const firstId = await upload(who, file);
    const { preview: first } = await preview(who, firstId);
    expect(first.rows[0]).toMatchObject({ outcome: "unchanged", detail: expect.stringContaining("Job title") });
    await submit(who, firstId, "start");
    await runPendingImports();
    const [kept] = await cardsByEmail(member.email);
    expect(kept).toMatchObject({ title: "Head of Sales (my own words)", phone: null, userId: member.id });

    // Ticked: the file's title and phone replace the card's.
    const secondId = await upload(who, file);
    const { preview: second } = await preview(who, secondId);
    expect(second.counts).toEqual({ create: 0, update: 0, unchanged: 2, skip: 0, error: 0 });
    await submit(who, secondId, "preview", { overwrite: ["title", "phone"] });
    const { preview: ticked } = await preview(who, secondId);
    expect(ticked.rows[0]).toMatchObject({ outcome: "update", detail: "Updates Job title, Phone" });
    await submit(who, secondId, "start", { overwrite: ["title", "phone"] });
    await runPendingImports();
    const [overwritten] = await cardsByEmail(member.email);
    expect(overwritten).toMatchObject({ title: "Sales", phone: "+1 555 0100" });

    // The same file with the same options again: nothing to do, nothing written.
    const stamps = await db.select({ id: profiles.id, updatedAt: profiles.updatedAt }).from(profiles);
    const thirdId = await upload(who, file);
    await submit(who, thirdId, "preview", { overwrite: ["title", "phone"] });
    expect((await preview(who, thirdId)).preview.counts).toEqual({
      create: 0,
      update: 0,
      unchanged: 2,
      skip: 0,
      error: 0,
    });
    await submit(who, thirdId, "start", { overwrite: ["title", "phone"] });
    await runPendingImports();
    expect(await db.select({ id: profiles.id, updatedAt: profiles.updatedAt }).from(profiles)).toEqual(stamps);
    const [third] = await db.select().from(imports).where(eq(imports.id, thirdId));
    expect(third).toMatchObject({ status: "done", createdCards: 0, updatedCards: 0, unchangedRows: 2 });
  });

  it("creates an unknown brand once when asked, and matches it on the next import", async () => {
    const who = await admin();
    const file =
      "First name,Last name,Email,Brand\nAna,One,ana@example.org,Contoso Labs\nBen,Two,ben@example.org,CONTOSO LABS\n";
    await importFile(who, file, { createBrands: true });
    const created = await db.select().from(brands);
    expect(created).toMatchObject([{ name: "Contoso Labs", active: true }]);
    const cards = await db
      .select({ brand: profiles.companyBrandId })
      .from(profiles)
      .where(sql`${profiles.email} like '%@example.org' and ${profiles.email} <> ${who.email}`);
    expect(cards.map((card) => card.brand)).toEqual([created[0]?.id, created[0]?.id]);
    const againId = await upload(who, file);
    expect((await preview(who, againId)).preview.counts).toEqual({
      create: 0,
      update: 0,
      unchanged: 2,
      skip: 0,
      error: 0,
    });
  });

  it("records each card an import changes (old and new values) and each brand it makes in the audit log, and a discarded import too", async () => {
    const who = await admin();
    const member = await createMember({ firstName: "Ola", lastName: "Audited" });
    await db.update(profiles).set({ title: "Old title" }).where(eq(profiles.id, member.profile.id));
    const file = `First name,Last name,Email,Job title,Brand\nOla,Audited,${member.email},New title,Fabrikam\nNew,Card,new.card@example.org,,\n`;
    const id = await upload(who, file, "people-audited.csv");
    await submit(who, id, "start", { overwrite: ["title", "brand"], createBrands: true });
    await runPendingImports();
    const [fabrikam] = await db.select().from(brands).where(eq(brands.name, "Fabrikam"));
    const entries = await db.select().from(auditLog).orderBy(auditLog.id);
    const entry = (action: string, kind: string) =>
      entries
        .filter((row) => row.action === action && row.targetKind === kind)
        .map((row) => ({
          actor: row.actorEmail,
          target: [row.targetId, row.targetLabel],
          changes: row.changes,
        }));
    expect(entry("create", "brand")).toEqual([
      {
        actor: who.email,
        target: [String(fabrikam?.id), "Fabrikam"],
        changes: { name: [null, "Fabrikam"], import: [null, "people-audited.csv"] },
      },
    ]);
    expect(entry("update", "profile")).toEqual([
      {
        actor: who.email,
        target: [member.profile.id, "Ola Audited"],
        changes: {
          title: ["Old title", "New title"],
          companyBrandId: [null, "Fabrikam"],
          import: [null, "people-audited.csv"],
        },
      },
    ]);

    // An upload the administrator throws away is recorded with its name.
    const unwanted = await upload(who, file, "unwanted.csv");
    const discarded = await run(
      detailAction,
      formRequest(`/admin/import/${unwanted}`, { intent: "discard" }),
      { id: unwanted },
      who.viewer,
    );
    expect(discarded.status).toBe(302);
    const [last] = await db.select().from(auditLog).orderBy(sql`${auditLog.id} desc`).limit(1);
    expect(last).toMatchObject({
      action: "discard",
      targetKind: "import",
      targetId: unwanted,
      targetLabel: "unwanted.csv",
      actorEmail: who.email,
    });
  });

  it("a batch cut off halfway leaves none of its rows; running the import again finishes it with every row once", async () => {
    const who = await admin();
    const rows = Array.from({ length: 25 }, (_, index) => `Person,Number${index},p${index}@example.org`);
    const id = await upload(who, `First name,Last name,Email\n${rows.join("\n")}\n`);
    await submit(who, id, "start");
    const claimed = present(await claimNextImport(), "a claimed import");
    expectConsoleError(/\[import\] .* stopped: the server stopped/);
    await runImport(claimed, {
      batchRows: 10,
      beforeCommit: (batch) => {
        if (batch === 2) throw new Error("the server stopped");
      },
    });
    const [stopped] = await db.select().from(imports).where(eq(imports.id, id));
    expect(stopped).toMatchObject({ status: "interrupted", processedRows: 10, createdCards: 10 });
    expect((await db.select().from(profiles).where(sql`${profiles.email} like 'p%@example.org'`)).length).toBe(10);
    expect((await preview(who, id)).status).toBe("interrupted");

    expect((await submit(who, id, "retry")).status).toBe(302);
    await runPendingImports({ batchRows: 10 });
    const [done] = await db.select().from(imports).where(eq(imports.id, id));
    expect(done).toMatchObject({ status: "done", processedRows: 25, createdCards: 25, failedRows: 0 });
    expect((await db.select().from(profiles).where(sql`${profiles.email} like 'p%@example.org'`)).length).toBe(25);
  });

  it.runIf(process.env.NAMECARD_TEST_DB !== "postgres")(
    "on the embedded database, an import leaves the planner knowing how many cards and rows there are, and offers to invite all 400 new people",
    async () => {
      const who = await admin();
      const rows = Array.from({ length: 400 }, (_, index) => `Person,Number${index},planned${index}@example.org`);
      const id = await importFile(who, `First name,Last name,Email\n${rows.join("\n")}\n`);
      // PGlite runs no autovacuum: before, both tables kept the planner's guess of an empty table
      // (-1), and the offer below was planned as a loop over every pair of rows.
      const known = rowsOf(
        await db.execute(
          sql`select relname, reltuples from pg_class where relname in ('profiles', 'import_rows') order by relname`,
        ),
      );
      expect(known).toEqual([
        { relname: "import_rows", reltuples: expect.toSatisfy((count: number) => count >= 400) },
        { relname: "profiles", reltuples: expect.toSatisfy((count: number) => count >= 400) },
      ]);
      const offered = (await preview(who, id)) as Preview & { newPeople: { count: number } };
      expect(offered.newPeople.count).toBe(400);
    },
  );

  it.runIf(process.env.NAMECARD_TEST_DB === "postgres")(
    "a batch that PostgreSQL ends to break a deadlock with another writer runs again, and the import finishes",
    async () => {
      const who = await admin();
      const cards = [
        await insertCard({ email: "dead.one@example.org", firstName: "Dead", lastName: "One", title: "Old" }),
        await insertCard({ email: "dead.two@example.org", firstName: "Dead", lastName: "Two", title: "Old" }),
      ].sort((a, b) => (a.id < b.id ? -1 : 1));
      const [first, second] = [present(cards[0], "a card"), present(cards[1], "a card")];
      const id = await upload(
        who,
        "First name,Last name,Email,Job title\nDead,One,dead.one@example.org,New\nDead,Two,dead.two@example.org,New\n",
      );
      await submit(who, id, "start", { overwrite: ["title"] });
      const warnings = vi.spyOn(console, "warn");

      // Another writer that takes the same two cards in the other order.
      const other = new pg.Client({ connectionString: process.env.NAMECARD_FILE_DATABASE_URL });
      await other.connect();
      try {
        await other.query("begin");
        await other.query("update profiles set bio = 'other writer' where id = $1", [second.id]);
        const importing = runImport(present(await claimNextImport(), "a claimed import"), { batchRows: 10 });
        // The import holds the first card and waits for the second; now the other writer asks for the first.
        await expect
          .poll(async () => {
            const [row] = rowsOf(
              await db.execute(sql`select count(*)::int as waiting from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`),
            ) as { waiting: number }[];
            return row?.waiting;
          })
          .toBe(1);
        const crossing = other.query("update profiles set bio = 'other writer' where id = $1", [first.id]);
        // The import waited first, so PostgreSQL ends its batch; the other writer then goes on and commits.
        await crossing;
        await other.query("commit");
        await importing;
      } finally {
        await other.end();
      }
      expect(warnings.mock.calls.flat()).toContainEqual(
        expect.stringMatching(/\[import\] a batch met a deadlock and runs again/),
      );
      warnings.mockRestore();
      const [done] = await db.select().from(imports).where(eq(imports.id, id));
      expect(done).toMatchObject({ status: "done", processedRows: 2, updatedCards: 2, failedRows: 0 });
      const after = await db
        .select({ title: profiles.title, bio: profiles.bio })
        .from(profiles)
        .where(sql`${profiles.email} like 'dead.%'`);
      expect(after).toEqual([
        { title: "New", bio: "other writer" },
        { title: "New", bio: "other writer" },
      ]);
    },
  );

  it("an import left running by a server that died is taken up again once its heartbeat is old", async () => {
    const who = await admin();
    const rows = Array.from({ length: 12 }, (_, index) => `Person,Number${index},q${index}@example.org`);
    const id = await upload(who, `First name,Last name,Email\n${rows.join("\n")}\n`);
    await submit(who, id, "start");
    // The server is killed after its first batch committed: the import stays "running".
    await runImport(present(await claimNextImport(), "a claimed import"), { batchRows: 5, maxBatches: 1 });
    expect(await claimNextImport()).toBeNull();
    await db
      .update(imports)
      .set({ heartbeatAt: new Date(Date.now() - 60_000) })
      .where(eq(imports.id, id));
    expect((await preview(who, id)).status).toBe("running");
    await runPendingImports({ batchRows: 5 });
    const [done] = await db.select().from(imports).where(eq(imports.id, id));
    expect(done).toMatchObject({ status: "done", processedRows: 12, createdCards: 12 });
  });

  it("offers a template with the recognised headers, and tells an oversized or empty upload what to do", async () => {
    const who = await admin();
    const template = (await templateLoader({
      request: getRequest("/admin/import/template.csv", who.cookie),
      params: {},
      context: undefined as never,
    } as never)) as Response;
    expect((await template.text()).replace(BOM, "")).toBe(
      '"First name","Last name","Email","Job title","Department","Office","Phone","Company / brand","LinkedIn URL","Website and other links","Username","Manager","Pronouns","Languages","Bio"\r\n',
    );
    const form = new FormData();
    form.set("file", new File(["x".repeat(10 * 1024 * 1024 + 1)], "big.csv", { type: "text/csv" }));
    const big = await run(uploadAction, await multipartRequest("/admin/import", form), {}, who.viewer);
    expect(big.status).toBe(413);
    expect(JSON.stringify(big.data)).toContain("larger than 10 MB");
    const empty = new FormData();
    empty.set("file", new File([""], "empty.csv", { type: "text/csv" }));
    const none = await run(uploadAction, await multipartRequest("/admin/import", empty), {}, who.viewer);
    expect(none.status).toBe(400);
    expect(await db.select().from(imports)).toEqual([]);
  });

  it("merges one office or department written two ways into one before importing, and names the merge in the audit log", async () => {
    const who = await admin();
    const file = [
      "First name,Last name,Email,Office,Department",
      "Aiko,Sato,aiko@example.org,Tokyo,Sales",
      "Ben,Mori,ben@example.org,Tokyo Office,sales ",
      "Chie,Ono,chie@example.org, Tokyo Office,Engineering",
      "Dan,Kim,dan@example.org,Seoul,Engineering",
    ].join("\n");
    const id = await upload(who, file);
    // Listed alphabetically with their counts, so the two spellings sit together.
    const listed = (await preview(who, id)).preview.values;
    expect(listed).toEqual([
      {
        field: "office",
        label: "Office",
        values: [
          { value: "Seoul", rows: 1, importedAs: "Seoul" },
          { value: "Tokyo", rows: 1, importedAs: "Tokyo" },
          { value: "Tokyo Office", rows: 2, importedAs: "Tokyo Office" },
        ],
        more: 0,
      },
      {
        field: "department",
        label: "Department",
        values: [
          { value: "Engineering", rows: 2, importedAs: "Engineering" },
          { value: "Sales", rows: 1, importedAs: "Sales" },
          { value: "sales", rows: 1, importedAs: "sales" },
        ],
        more: 0,
      },
    ]);

    // A name too long for the field is refused, and nothing is kept.
    const tooLong = await submit(who, id, "preview", { merges: { "office:Tokyo Office": "T".repeat(101) } });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.data)).toContain('"mergeTo.office.2":["At most 100 characters"]');
    expect((await preview(who, id)).preview.values[0]?.values[2]?.importedAs).toBe("Tokyo Office");
    // A box for a field that is not merged, or for a value the page did not list (a hand-made form), changes nothing.
    const body = new URLSearchParams({ intent: "preview" });
    for (const [index, field] of ["firstName", "lastName", "email", "office", "department"].entries())
      body.set(`column.${index}`, field);
    body.set("mergeTo.email.0", "admin@example.com");
    body.set("mergeTo.office.99", "Nowhere");
    body.set("mergeTo.__proto__.0", "x");
    const request = formRequest(`/admin/import/${id}`, {});
    const forged = await run(
      detailAction,
      new Request(request.url, { method: "POST", headers: request.headers, body }),
      { id },
      who.viewer,
    );
    expect(forged.status).toBe(302);
    const [kept] = await db.select({ merged: imports.mergedValues }).from(imports).where(eq(imports.id, id));
    expect(kept?.merged).toEqual({});

    const merges = { "office:Tokyo Office": "Tokyo", "department:sales": "Sales" };
    expect((await submit(who, id, "preview", { merges })).status).toBe(302);
    const merged = await preview(who, id);
    expect(merged.preview.values[0]?.values.map((value) => value.importedAs)).toEqual(["Seoul", "Tokyo", "Tokyo"]);
    expect(merged.preview.rows.find((row) => row.rowNumber === 3)?.fields).toContainEqual({
      label: "Office",
      value: "Tokyo",
    });

    expect((await submit(who, id, "start", { merges })).status).toBe(302);
    await runPendingImports();
    const cards = await db
      .select({ email: profiles.email, office: profiles.office, department: profiles.department })
      .from(profiles)
      .where(sql`${profiles.email} like '%@example.org'`)
      .orderBy(profiles.email);
    expect(cards).toEqual([
      { email: "aiko@example.org", office: "Tokyo", department: "Sales" },
      { email: "ben@example.org", office: "Tokyo", department: "Sales" },
      { email: "chie@example.org", office: "Tokyo", department: "Engineering" },
      { email: "dan@example.org", office: "Seoul", department: "Engineering" },
    ]);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "import"));
    expect(JSON.stringify(entry?.changes)).toContain("Office: Tokyo Office → Tokyo; Department: sales → Sales");
  });

  it("merges values named like an object's own properties as any other, and imports the rest as written", async () => {
    const who = await admin();
    const file = [
      "First name,Last name,Email,Department",
      "Ann,One,ann@example.org,__proto__",
      "Bo,Two,bo@example.org,constructor",
      "Cy,Three,cy@example.org,toString",
    ].join("\n");
    const id = await upload(who, file);
    expect((await preview(who, id)).preview.values[0]?.values.map((value) => value.importedAs)).toEqual([
      "__proto__",
      "constructor",
      "toString",
    ]);
    const merges = { "department:__proto__": "Platform", "department:toString": "Tools" };
    expect((await submit(who, id, "start", { merges })).status).toBe(302);
    await runPendingImports();
    const cards = await db
      .select({ email: profiles.email, department: profiles.department })
      .from(profiles)
      .where(sql`${profiles.email} like '%@example.org'`)
      .orderBy(profiles.email);
    expect(cards).toEqual([
      { email: "ann@example.org", department: "Platform" },
      { email: "bo@example.org", department: "constructor" },
      { email: "cy@example.org", department: "Tools" },
    ]);
  });

  it("refuses a mapping without an email column or with one field twice, and changes nothing", async () => {
    const who = await admin();
    const id = await upload(who, "First name,Last name,Email\nA,B,a@example.org\n");
    const noEmail = await submit(who, id, "start", { mapping: ["firstName", "lastName", ""] });
    expect(noEmail.status).toBe(400);
    expect(JSON.stringify(noEmail.data)).toContain("Choose the column that holds the email");
    const twice = await submit(who, id, "start", { mapping: ["firstName", "firstName", "email"] });
    expect(JSON.stringify(twice.data)).toContain("First name already comes from column 1");
    const [record] = await db.select().from(imports).where(eq(imports.id, id));
    expect(record).toMatchObject({ status: "draft", mapping: ["firstName", "lastName", "email"] });
  });
});

describe("what others see after an import", () => {
  listenForEvents();

  it("announces every card made or changed and every brand made, as the card and brand forms do, so cached pages refresh", async () => {
    const who = await admin();
    const existing = await insertCard({ email: "existing@example.org", title: "Old title" });
    const events: RealtimeEvent[] = [];
    const unsubscribe = subscribe((event) => events.push(event));
    try {
      await importFile(
        who,
        "First name,Last name,Email,Job title,Brand\nNew,Card,new.card@example.org,Engineer,Fabrikam\nZoë,Laurent,existing@example.org,New title,\n",
        { overwrite: ["title"], createBrands: true },
      );
      const [created] = await cardsByEmail("new.card@example.org");
      const [brand] = await db.select().from(brands);
      await expect
        .poll(() => events.map((event) => `${event.kind}:${event.id}`).sort())
        .toEqual([`brand:${brand?.id}`, `profile:${created?.id}`, `profile:${existing.id}`].sort());
    } finally {
      unsubscribe();
    }
  });
});

describe("a manager column", () => {
  it("sets each new card's manager once every row is in, a row further down included, and refuses a cycle, a deactivated manager and a stranger with the edit form's messages", async () => {
    const who = await admin();
    const boss = await insertCard({ email: "boss@example.org", username: "the.boss", firstName: "Bo", lastName: "Ss" });
    await insertCard({ email: "gone@example.org", username: "gone", deactivatedAt: new Date() });
    const file = [
      "First name,Last name,Email,Manager",
      "Ann,Lee,ann@example.org,bob@example.org",
      "Bob,Ray,bob@example.org,@the.boss",
      "Cy,Fox,cy@example.org,dee@example.org",
      "Dee,Ng,dee@example.org,cy@example.org",
      "Eve,Ho,eve@example.org,gone",
      "Fay,Wu,fay@example.org,nobody@example.org",
      "Gus,Li,gus@example.org,bo\u0007ss@example.org",
    ].join("\n");
    const id = await upload(who, file);
    const planned = await preview(who, id);
    expect(planned.settings.mapping).toEqual(["firstName", "lastName", "email", "manager"]);
    expect(planned.preview.rows.map((row) => row.detail)).toEqual([
      "Reports to bob@example.org",
      "Reports to the.boss",
      "Reports to dee@example.org",
      "Reports to cy@example.org",
      `No manager is set: ${MANAGER_MESSAGES.deactivated}`,
      `No manager is set: ${MANAGER_MESSAGES.unknown}`,
      `No manager is set: ${MANAGER_MESSAGES.unknown}`,
    ]);
    expect((await submit(who, id, "start")).status).toBe(302);
    await runPendingImports();

    const managerOf = async (email: string) => {
      const [card] = await cardsByEmail(email);
      const [manager] = card?.managerId
        ? await db.select({ username: profiles.username }).from(profiles).where(eq(profiles.id, card.managerId))
        : [];
      return manager?.username ?? null;
    };
    const [bob] = await cardsByEmail("bob@example.org");
    expect(await managerOf("ann@example.org")).toBe(present(bob, "Bob's card").username);
    expect(await managerOf("bob@example.org")).toBe(boss.username);
    expect(await managerOf("cy@example.org")).not.toBeNull();
    expect(await managerOf("dee@example.org")).toBeNull();
    expect(await managerOf("eve@example.org")).toBeNull();
    expect(await managerOf("fay@example.org")).toBeNull();
    const details = await db
      .select({ n: importRows.rowNumber, outcome: importRows.outcome, detail: importRows.detail })
      .from(importRows)
      .where(eq(importRows.importId, id))
      .orderBy(importRows.rowNumber);
    expect(details.map((row) => row.outcome)).toEqual(Array(7).fill("created"));
    expect(details[3]?.detail).toBe(`no manager is set: ${MANAGER_MESSAGES.cycle("Cy Fox")}`);
    expect(details[4]?.detail).toBe(`no manager is set: ${MANAGER_MESSAGES.deactivated}`);
    expect(details[5]?.detail).toBe(`no manager is set: ${MANAGER_MESSAGES.unknown}`);
    expect(details[6]?.detail).toBe(`no manager is set: ${MANAGER_MESSAGES.unknown}`);
    // Each manager set is on the record, named by username, with the file.
    const entries = await db.select().from(auditLog).where(eq(auditLog.action, "update"));
    expect(entries).toHaveLength(3);
    expect(entries.map((entry) => entry.changes.import)).toEqual(Array(3).fill([null, "people.csv"]));
  });

  it("changes an existing card's manager only when the column is ticked, and counts it as an update", async () => {
    const who = await admin();
    await insertCard({ email: "lead@example.org", username: "lead" });
    await insertCard({ email: "kim@example.org", username: "kim", firstName: "Kim", lastName: "Ode" });
    const file = "First name,Last name,Email,Manager\nKim,Ode,kim@example.org,lead\n";
    await importFile(who, file);
    const [untouched] = await cardsByEmail("kim@example.org");
    expect(untouched?.managerId).toBeNull();

    const id = await importFile(who, file, { overwrite: ["manager"] });
    const [changed] = await cardsByEmail("kim@example.org");
    const [lead] = await cardsByEmail("lead@example.org");
    expect(changed?.managerId).toBe(present(lead, "the lead's card").id);
    const [record] = await db.select().from(imports).where(eq(imports.id, id));
    expect(record).toMatchObject({ updatedCards: 1, unchangedRows: 0 });
  });
});
