import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { brands, siteSettings } from "~/.server/platform/db/schema";
import { loader as cardLoader } from "~/routes/profile/$username";
import { loader as qrLoader } from "~/routes/qr/$username";
import { BASE, createMember, insertCard, run } from "./helpers";

/** A card of a brand with `website`, or of no brand. */
async function cardWithBrandSite(website: string | null) {
  const [brand] = website
    ? await db.insert(brands).values({ name: "Harbor Logistics", website }).returning()
    : [undefined];
  return insertCard({ firstName: "Hana", lastName: "Harbor", companyBrandId: brand?.id ?? null });
}

function open(page: "profile" | "qr", username: string, headers: Record<string, string> = {}) {
  const loader = page === "profile" ? cardLoader : qrLoader;
  return run(loader, new Request(`${BASE}/${page}/${username}`, { headers }), { username });
}

function backOf(result: { data: unknown }) {
  return (result.data as { back: unknown }).back;
}

afterEach(async () => {
  await db.delete(siteSettings).where(eq(siteSettings.id, 1));
});

describe("Back on a public card and QR page", () => {
  it("takes a visitor who scanned a code to the brand's website, never to sign-in", async () => {
    const card = await cardWithBrandSite("https://harbor.example/");
    for (const page of ["profile", "qr"] as const) {
      expect(backOf(await open(page, card.username))).toEqual({
        kind: "website",
        href: "https://harbor.example/",
        name: "Harbor Logistics",
      });
    }
  });

  it("gives every visitor the same way back, wherever they came from (the browser's history takes them back)", async () => {
    const card = await cardWithBrandSite("https://harbor.example/");
    for (const referer of [
      `${BASE}/qr/${card.username}`,
      `${BASE}/auth?redirectTo=%2F`,
      "https://elsewhere.example/",
    ]) {
      expect(backOf(await open("profile", card.username, { referer }))).toEqual({
        kind: "website",
        href: "https://harbor.example/",
        name: "Harbor Logistics",
      });
    }
  });

  it("falls back to the company's website, and offers no Back when there is none", async () => {
    const card = await cardWithBrandSite(null);
    expect(backOf(await open("qr", card.username))).toBeNull();
    await db.insert(siteSettings).values({ id: 1, companyName: "Harbor Group", website: "https://group.example/" });
    expect(backOf(await open("qr", card.username))).toEqual({
      kind: "website",
      href: "https://group.example/",
      name: "Harbor Group",
    });
  });

  it("keeps Back to Directory for a signed-in member", async () => {
    const member = await createMember();
    const card = await cardWithBrandSite("https://harbor.example/");
    for (const page of ["profile", "qr"] as const) {
      expect(backOf(await open(page, card.username, { cookie: member.cookie }))).toEqual({
        kind: "directory",
        href: "/directory",
      });
    }
  });
});
