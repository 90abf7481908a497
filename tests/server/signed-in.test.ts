import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getOptionalViewer, sessionCookieUpdates } from "~/.server/http/authz";
import { db } from "~/.server/platform/db/client";
import { brands, profiles, sessions } from "~/.server/platform/db/schema";
import { createMember, getRequest, present } from "./helpers";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The session token inside a member's signed cookie. */
function tokenOf(cookie: string): string {
  const value = decodeURIComponent(present(/namecard\.session_token=([^;]+)/.exec(cookie)?.[1], "the session cookie"));
  return value.slice(0, value.lastIndexOf("."));
}

function signedWith(secret: string, token: string): string {
  const signature = createHmac("sha256", secret).update(token).digest("base64");
  return `namecard.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

describe("a signed-in request", () => {
  it("shows the member as themselves, with their card and brand, as better-auth's own reading does", async () => {
    const [made] = await db.insert(brands).values({ name: "Northwind", primaryColor: "#0a7d5a" }).returning();
    const brand = present(made, "the brand");
    const member = await createMember();
    await db.update(profiles).set({ companyBrandId: brand.id }).where(eq(profiles.id, member.profile.id));
    const read = await getOptionalViewer(getRequest("/directory", member.cookie));
    expect(read?.profile).toMatchObject({ id: member.profile.id, brandName: "Northwind", brandColor: "#0a7d5a" });
    // An unsigned "don't remember me" cookie changes nothing but sends the request through better-auth.
    const throughBetterAuth = await getOptionalViewer(
      getRequest("/directory", `${member.cookie}; namecard.dont_remember=x`),
    );
    expect(throughBetterAuth).toEqual(read);
  });

  it("signs nobody in with a session cookie signed by anyone but this server", async () => {
    const member = await createMember();
    const forged = signedWith("not this server's secret, but long enough", tokenOf(member.cookie));
    expect(await getOptionalViewer(getRequest("/directory", forged))).toBeNull();
    const unsigned = `namecard.session_token=${tokenOf(member.cookie)}`;
    expect(await getOptionalViewer(getRequest("/directory", unsigned))).toBeNull();
    // A signature of the right length in characters but not in bytes: a visitor, not an error.
    const garbled = `namecard.session_token=${tokenOf(member.cookie)}.%C3%A9${"A".repeat(42)}%3D`;
    expect(await getOptionalViewer(getRequest("/auth", garbled))).toBeNull();
    // The real cookie still works: only the forgeries were refused.
    expect(await getOptionalViewer(getRequest("/directory", member.cookie))).not.toBeNull();
  });

  it("signs nobody in once the session was ended on another device", async () => {
    const member = await createMember();
    await db.delete(sessions).where(eq(sessions.token, tokenOf(member.cookie)));
    const request = getRequest("/directory", member.cookie);
    expect(await getOptionalViewer(request)).toBeNull();
    expect(sessionCookieUpdates(request).join()).toMatch(/namecard\.session_token=;.*Max-Age=0/i);
  });

  it("signs nobody in with an expired session, and deletes it", async () => {
    const member = await createMember();
    const token = tokenOf(member.cookie);
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.token, token));
    expect(await getOptionalViewer(getRequest("/directory", member.cookie))).toBeNull();
    expect(await db.select().from(sessions).where(eq(sessions.token, token))).toHaveLength(0);
  });

  it("renews a session a day old for thirty days, and sends the renewed cookie", async () => {
    const member = await createMember();
    const token = tokenOf(member.cookie);
    const dayOld = new Date(Date.now() + 29 * DAY_MS - 60_000);
    await db.update(sessions).set({ expiresAt: dayOld }).where(eq(sessions.token, token));
    const request = getRequest("/directory", member.cookie);
    expect((await getOptionalViewer(request))?.user.id).toBe(member.viewer.user.id);
    expect(sessionCookieUpdates(request).join()).toMatch(/namecard\.session_token=.+Max-Age=2592000/i);
    const [session] = await db.select().from(sessions).where(eq(sessions.token, token));
    expect(present(session, "the session").expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  });

  it("needs no renewal, and sends no cookie, for a session started today", async () => {
    const member = await createMember();
    const request = getRequest("/directory", member.cookie);
    expect(await getOptionalViewer(request)).not.toBeNull();
    expect(sessionCookieUpdates(request)).toEqual([]);
  });

  it("signs out a member whose card was deactivated since the page before", async () => {
    const member = await createMember();
    await db.update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.id, member.profile.id));
    expect(await getOptionalViewer(getRequest("/directory", member.cookie))).toBeNull();
    expect(await db.select().from(sessions).where(eq(sessions.userId, member.viewer.user.id))).toHaveLength(0);
  });

  it("reads the session cookie only once when a browser sends it twice", async () => {
    const member = await createMember();
    const other = await createMember();
    // Two session cookies: better-auth's rule (the first) decides, as it always has.
    const viewer = await getOptionalViewer(getRequest("/directory", `${member.cookie}; ${other.cookie}`));
    expect(viewer?.user.id).toBe(member.viewer.user.id);
  });
});
