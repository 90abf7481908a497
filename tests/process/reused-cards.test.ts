import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openPglite, rowsOf } from "~/.server/platform/db/client";
import { startedProcesses } from "../support/process-suite";
import {
  migratedDataDir,
  SERVER_BUILT,
  type ServerProcess,
  signedInMember,
  startServer,
  usernameIn,
} from "../support/server-process";

/**
 * The built server answering anonymous visitors of a card from a page it keeps
 * (server/page-cache.ts), with views written in batches: every distinct
 * visitor counted once, an edit shown on the next request, and a clean stop
 * writing every view it had counted. On the embedded database (the
 * several-instance file covers PostgreSQL).
 */
const EMBEDDED = process.env.NAMECARD_TEST_DB !== "postgres";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

const started = startedProcesses("the reused-card process tests");

async function usernameOf(server: ServerProcess, cookie: string) {
  const html = await (await fetch(`${server.url}/profile/edit`, { headers: { cookie } })).text();
  return usernameIn(html);
}

/** An anonymous visitor at `ip` (the server trusts the local proxy that says so). */
async function visit(server: ServerProcess, pathname: string, ip: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${pathname}`, {
    headers: { "user-agent": BROWSER, "x-forwarded-for": ip, "accept-encoding": "gzip", ...headers },
    redirect: "manual",
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function shownCount(html: string) {
  const match = /data-testid="view-count">([\d,]+)</.exec(html);
  if (!match?.[1]) throw new Error(`no view count in:\n${html.slice(0, 400)}`);
  return Number(match[1].replace(/,/g, ""));
}

/** The word after the view count. */
function shownWord(html: string) {
  return /data-views-word="">(\w+)</.exec(html)?.[1];
}

async function editCard(server: ServerProcess, cookie: string, fields: Record<string, string>) {
  const form = new FormData();
  const values = { phone: "", bio: "", linkedinUrl: "", companyBrandId: "", ...fields };
  for (const [name, value] of Object.entries(values)) form.set(name, value);
  const response = await fetch(`http://localhost:${server.port}/profile/edit`, {
    method: "POST",
    headers: { cookie, origin: `http://localhost:${server.port}` },
    body: form,
    redirect: "manual",
  });
  expect(response.status, await response.text()).toBe(302);
}

describe.skipIf(!EMBEDDED || !SERVER_BUILT)("anonymous visitors of a card", () => {
  it("are each counted once however many come at once, see an edit at once, and a clean stop writes every view", async () => {
    const dataDir = await migratedDataDir();
    const server = await startServer({ dataDir, env: { TRUST_PROXY: "loopback" } });
    started.push(server);
    const email = "reused.card@example.com";
    const cookie = await signedInMember(server, email, { first: "Reu", last: "Sed" });
    const username = await usernameOf(server, cookie);
    const card = `/profile/${username}`;

    // The first visitor is counted and sees their view; their reload is not counted again.
    const first = await visit(server, card, "10.9.1.1");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-encoding")).toBe("gzip");
    expect(shownCount(first.text)).toBe(1);
    expect(shownWord(first.text)).toBe("view");
    const reload = (await visit(server, card, "10.9.1.1")).text;
    expect(shownCount(reload)).toBe(1);
    // The kept page's word follows the count: "1 view", never "1 views", on the QR page too.
    expect(shownWord(reload)).toBe("view");
    expect(shownWord((await visit(server, `/qr/${username}`, "10.9.4.1")).text)).toBe("view");

    // Each answer of the kept page has a script nonce of its own, the same in its policy and its scripts,
    // compressed or not.
    const nonces = [
      first,
      await visit(server, card, "10.9.1.1"),
      await visit(server, card, "10.9.1.1", { "accept-encoding": "identity" }),
    ].map((answer) => {
      const policy = /'nonce-([^']+)'/.exec(answer.headers.get("content-security-policy") ?? "")?.[1];
      const inPage = [...answer.text.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((found) => found[1]);
      expect(inPage.length).toBeGreaterThan(0);
      expect(new Set(inPage)).toEqual(new Set([policy]));
      return policy;
    });
    expect(new Set(nonces).size).toBe(3);

    // Forty different visitors at once, and one visitor ten times at once.
    const crowd = await Promise.all(
      Array.from({ length: 40 }, (_, index) => visit(server, `${card}?src=qr`, `10.9.2.${index + 1}`)),
    );
    expect(crowd.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    const repeats = await Promise.all(Array.from({ length: 10 }, () => visit(server, card, "10.9.3.1")));
    expect(repeats.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(shownCount((await visit(server, card, "10.9.1.1")).text)).toBe(42);
    // The QR page shows the same count without counting.
    expect(shownCount((await visit(server, `/qr/${username}`, "10.9.4.1")).text)).toBe(42);
    const qr = (await visit(server, `/qr/${username}`, "10.9.4.1")).text;
    expect(shownCount(qr)).toBe(42);
    expect(shownWord(qr)).toBe("views");

    // Nothing of one viewer reaches another: the owner, signed in, gets their own page.
    const owners = await (await fetch(`${server.url}${card}`, { headers: { cookie, "user-agent": BROWSER } })).text();
    expect(owners).toContain("Edit Profile");
    expect((await visit(server, card, "10.9.1.1")).text).not.toContain("Edit Profile");

    // An edit shows on the very next request, on the card, its QR page and its contact file.
    await visit(server, `${card}/contact.vcf`, "10.9.4.1");
    await editCard(server, cookie, {
      firstName: "Reu",
      lastName: "Sed",
      email,
      username,
      title: "Freshly Edited Title",
    });
    expect((await visit(server, card, "10.9.1.1")).text).toContain("Freshly Edited Title");
    expect((await visit(server, `${card}?src=qr`, "10.9.1.1")).text).toContain("Freshly Edited Title");
    expect((await visit(server, `/qr/${username}`, "10.9.4.1")).text).toContain("Freshly Edited Title");
    expect((await visit(server, `${card}/contact.vcf`, "10.9.4.1")).text).toContain("TITLE:Freshly Edited Title");

    // A new username: the old address moves to the new one at once, which shows the card.
    const renamed = `${username}.renamed`;
    await editCard(server, cookie, { firstName: "Reu", lastName: "Sed", email, username: renamed, title: "Renamed" });
    const moved = await visit(server, card, "10.9.1.1");
    expect(moved.status).toBe(307);
    expect(moved.headers.get("location")).toBe(`/profile/${renamed}`);
    expect((await visit(server, `/profile/${renamed}`, "10.9.1.1")).text).toContain("Renamed");

    // Stopped cleanly right after the crowd: every counted view is stored, none twice.
    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const handle = await openPglite({ dataDir: path.join(dataDir, "db") });
    try {
      const [row] = rowsOf(
        await handle.db.execute(
          sql`select p.view_count, (select count(*)::int from profile_views v where v.profile_id = p.id) as views
              from profiles p where p.email = ${email}`,
        ),
      ) as { view_count: number; views: number }[];
      expect(row).toEqual({ view_count: 42, views: 42 });
    } finally {
      await handle.close();
    }
  }, 180_000);

  it("keeps a page for the theme it shows, however the theme cookie is sent", async () => {
    const server = await startServer({ dataDir: await migratedDataDir(), env: { TRUST_PROXY: "loopback" } });
    started.push(server);
    const cookie = await signedInMember(server, "themed@example.com", { first: "The", last: "Med" });
    const card = `/profile/${await usernameOf(server, cookie)}`;
    const dark = (html: string) => /<html[^>]*\bclass="[^"]*\bdark\b/.test(html);
    for (const doubled of ["theme=dark; theme=light", "theme=dark;theme=light", "theme=dark; theme=nonsense"]) {
      expect(dark((await visit(server, card, "10.6.0.1", { cookie: doubled })).text), doubled).toBe(true);
      // Whoever comes next with one theme gets the page of that theme.
      expect(dark((await visit(server, card, "10.6.0.2", { cookie: "theme=light" })).text), doubled).toBe(false);
      expect(dark((await visit(server, card, "10.6.0.3")).text), doubled).toBe(false);
      expect(dark((await visit(server, card, "10.6.0.4", { cookie: "theme=dark" })).text), doubled).toBe(true);
    }
  }, 180_000);

  it("keeps a page per language a browser asks for, each counting in its own words", async () => {
    const server = await startServer({ dataDir: await migratedDataDir(), env: { TRUST_PROXY: "loopback" } });
    started.push(server);
    const cookie = await signedInMember(server, "sprachen@example.com", { first: "Sina", last: "Sprach" });
    const username = await usernameOf(server, cookie);
    const card = `/profile/${username}`;
    const language = (html: string) => /<html[^>]*\blang="([^"]+)"/.exec(html)?.[1];
    const direction = (html: string) => /<html[^>]*\bdir="([^"]+)"/.exec(html)?.[1];
    const word = (html: string) => /data-views-word="">([^<]+)</.exec(html)?.[1];

    const german = await visit(server, card, "10.5.0.1", { "accept-language": "de-AT,de;q=0.9,en;q=0.5" });
    expect(language(german.text)).toBe("de");
    expect(german.text).toContain("Kontakt speichern");
    expect(german.headers.get("vary")).toMatch(/Accept-Language/);
    const japanese = await visit(server, card, "10.5.0.2", { "accept-language": "ja" });
    expect(language(japanese.text)).toBe("ja");
    expect(japanese.text).toContain("連絡先を保存");
    expect(japanese.text).not.toContain("Kontakt speichern");
    const arabic = await visit(server, card, "10.5.0.3", { "accept-language": "ar-EG" });
    expect([language(arabic.text), direction(arabic.text)]).toEqual(["ar", "rtl"]);
    expect(arabic.text).toContain("حفظ جهة الاتصال");
    // A language Namecard does not speak gets English.
    const swedish = await visit(server, card, "10.5.0.4", { "accept-language": "sv-SE" });
    expect([language(swedish.text), direction(swedish.text)]).toEqual(["en", "ltr"]);

    // The German page again, now kept: German still, its count and word the visitor's own.
    const again = await visit(server, card, "10.5.0.5", { "accept-language": "de" });
    expect(language(again.text)).toBe("de");
    expect(shownCount(again.text)).toBe(5);
    expect(word(again.text)).toBe("Aufrufe");
    const once = await visit(server, `/qr/${username}`, "10.5.0.6", { "accept-language": "fr-CA" });
    expect(once.text).toContain("Scannez pour entrer en contact avec Sina");

    // A link may name the language, whatever the browser asks for; search engines see every language.
    const named = await visit(server, `${card}?lang=de`, "10.5.0.7", { "accept-language": "ja" });
    expect(language(named.text)).toBe("de");
    expect(named.text).toContain('<meta property="og:locale" content="de"/>');
    expect(arabic.text).toContain('<meta property="og:locale" content="ar"/>');
    expect(named.text).toMatch(/rel="canonical" href="[^"]+\?lang=de"/);
    for (const locale of ["en", "de", "ja", "ar", "zh-CN", "pt-BR"]) {
      expect(named.text).toMatch(new RegExp(`rel="alternate" hrefLang="${locale}" href="[^"]+\\?lang=${locale}"`, "i"));
    }
  }, 180_000);

  it("keeps every view a clean stop finds still waiting to be written", async () => {
    const dataDir = await migratedDataDir();
    const server = await startServer({ dataDir, env: { TRUST_PROXY: "loopback" } });
    started.push(server);
    const email = "stopped.early@example.com";
    const cookie = await signedInMember(server, email, { first: "Sto", last: "Pped" });
    const card = `/profile/${await usernameOf(server, cookie)}`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) => visit(server, card, `10.8.0.${index + 1}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    // At once: the last views are still waiting for their batch.
    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });

    const restarted = await startServer({ dataDir, env: { TRUST_PROXY: "loopback" } });
    started.push(restarted);
    // After the restart: all thirty, and a reload by one of them is not counted again.
    expect(shownCount((await visit(restarted, card, "10.8.0.1")).text)).toBe(30);
    expect(shownCount((await visit(restarted, card, "10.8.0.31")).text)).toBe(31);
  }, 180_000);
});

describe.skipIf(!EMBEDDED || !SERVER_BUILT)("a card's QR code and preview image", () => {
  it("are answered from memory to anonymous visitors, and an edit shows in them on the next request", async () => {
    const server = await startServer({ dataDir: await migratedDataDir() });
    started.push(server);
    const email = "pictured@example.com";
    const cookie = await signedInMember(server, email, { first: "Pic", last: "Tured" });
    const username = await usernameOf(server, cookie);
    const image = async (file: string) => {
      const response = await visit(server, `/profile/${username}/${file}`, "10.7.0.1");
      expect(response.status).toBe(200);
      return response.headers;
    };

    const qr = await image("qr.png");
    expect(qr.get("content-disposition")).toContain("Pic_Tured_QR.png");
    expect((await image("qr.png")).get("etag")).toBe(qr.get("etag"));
    const preview = (await image("og.png")).get("etag");
    expect((await image("og.png")).get("etag")).toBe(preview);

    await editCard(server, cookie, { firstName: "Pic", lastName: "Renamed", email, username, title: "New Title" });
    expect((await image("qr.png")).get("content-disposition")).toContain("Pic_Renamed_QR.png");
    expect((await image("og.png")).get("etag")).not.toBe(preview);
  }, 180_000);
});

describe.skipIf(!EMBEDDED || !SERVER_BUILT)("the directory's count of people", () => {
  const shownTotal = async (server: ServerProcess, cookie: string, query = "") => {
    const page = await (await fetch(`${server.url}/directory${query}`, { headers: { cookie } })).text();
    const html = page.replaceAll("<!-- -->", "");
    const match = /([\d,]+) Profiles?</.exec(html);
    if (!match?.[1]) throw new Error(`no count of profiles in:\n${html.slice(0, 400)}`);
    return Number(match[1].replace(/,/g, ""));
  };

  it("follows a new member and an edited card on the very next request", async () => {
    const server = await startServer({ dataDir: await migratedDataDir() });
    started.push(server);
    const email = "counted.first@example.com";
    const cookie = await signedInMember(server, email, { first: "Cou", last: "Nted" });
    expect(await shownTotal(server, cookie)).toBe(1);
    expect(await shownTotal(server, cookie)).toBe(1);
    expect(await shownTotal(server, cookie, "?q=zy")).toBe(0);

    await signedInMember(server, "counted.second@example.com", { first: "Sec", last: "Ond" });
    expect(await shownTotal(server, cookie)).toBe(2);

    await editCard(server, cookie, {
      firstName: "Cou",
      lastName: "Nted",
      email,
      username: await usernameOf(server, cookie),
      title: "Zyx Lead",
    });
    expect(await shownTotal(server, cookie, "?q=zy")).toBe(1);

    // A page of people is kept between requests, and a visitor's view of a card it shows brings that card's count up once written.
    const tile = async () => {
      const html = (await (await fetch(`${server.url}/directory?q=zyx`, { headers: { cookie } })).text()).replaceAll(
        "<!-- -->",
        "",
      );
      return { title: /Zyx [A-Za-z]+/.exec(html)?.[0], views: /(\d+) views?</.exec(html)?.[1] };
    };
    expect(await tile()).toEqual({ title: "Zyx Lead", views: "0" });
    expect(await tile()).toEqual({ title: "Zyx Lead", views: "0" });
    await visit(server, `/profile/${await usernameOf(server, cookie)}`, "10.5.0.1");
    await expect.poll(tile, { timeout: 10_000 }).toMatchObject({ views: "1" });
  }, 180_000);
});
