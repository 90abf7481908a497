import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getOptionalViewer } from "~/.server/http/authz";
import { openStreamCount } from "~/.server/http/event-streams";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import {
  accounts,
  brands,
  profiles,
  profileViews,
  sessions,
  siteSettings,
  usernameRedirects,
  users,
} from "~/.server/platform/db/schema";
import { getStorage } from "~/.server/platform/storage";
import { DEACTIVATED_SIGN_IN } from "~/.server/profiles/deactivation";
import { movedCardAddress } from "~/.server/profiles/previous-usernames";
import { action as profilesAction, loader as profilesLoader } from "~/routes/admin/profiles";
import { loader as directoryLoader } from "~/routes/app/directory";
import { action as authAction } from "~/routes/auth/auth";
import { loader as eventsLoader } from "~/routes/events";
import { loader as cardLoader } from "~/routes/profile/$username";
import { loader as vcardLoader } from "~/routes/profile/contact.vcf";
import { loader as ogLoader } from "~/routes/profile/og.png";
import { loader as qrPngLoader } from "~/routes/profile/qr.png";
import { loader as qrPageLoader } from "~/routes/qr/$username";
import { loader as uploadsLoader } from "~/routes/uploads.$";
import {
  cookieFrom,
  createMember,
  formRequest,
  getRequest,
  listenForEvents,
  MEMBER_PASSWORD,
  multipartRequest,
  run,
} from "./helpers";

/**
 * An administrator switches a card off and on again: its owner is signed out
 * at once and cannot sign in, the card leaves the directory, and every public
 * address of it answers 410 Gone (or sends the visitor to the brand's website,
 * as the settings say); views are kept, and reactivating restores everything.
 */

async function setState(admin: Awaited<ReturnType<typeof createMember>>, id: string, intent: string) {
  const form = new FormData();
  form.set("intent", intent);
  form.set("id", id);
  form.set("redirectTo", "/admin/profiles?state=deactivated");
  return run(profilesAction, await multipartRequest("/admin/profiles", form), {}, admin.viewer);
}

const PUBLIC = [
  ["card page", cardLoader, (username: string) => `/profile/${username}`],
  ["QR page", qrPageLoader, (username: string) => `/qr/${username}`],
  ["contact file", vcardLoader, (username: string) => `/profile/${username}/contact.vcf`],
  ["QR image", qrPngLoader, (username: string) => `/profile/${username}/qr.png`],
  ["preview image", ogLoader, (username: string) => `/profile/${username}/og.png`],
] as const;

async function publicStatuses(username: string) {
  const answers: Record<string, { status: number; location: string | null }> = {};
  for (const [name, loader, path] of PUBLIC) {
    const answer = await run(loader, getRequest(path(username)), { username });
    answers[name] = { status: answer.status, location: answer.location };
  }
  return answers;
}

async function signIn(email: string, password: string) {
  return run(authAction, formRequest("/auth", { intent: "signin", email, password }));
}

/** Opens `/events` as a browser tab would; `ended` resolves when the server closes the stream. */
async function openStream(cookie: string) {
  const response = await eventsLoader({
    request: new Request("http://localhost:3000/events", { headers: { cookie } }),
    params: {},
    context: {},
  } as never);
  const reader = response.status === 200 ? response.body?.getReader() : undefined;
  const ended = (async () => {
    if (!reader) return;
    for (;;) if ((await reader.read()).done) return;
  })();
  return { status: response.status, ended };
}

describe("deactivating a card", () => {
  listenForEvents();

  it("signs its owner out at once (live stream included), refuses their sign-in, and reactivating lets them back", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Leo", lastName: "Leaving" });
    expect((await getOptionalViewer(getRequest("/", member.cookie)))?.user.email).toBe(member.email);
    const stream = await openStream(member.cookie);
    expect(stream.status).toBe(200);

    const done = await setState(admin, member.profile.id, "deactivate");
    expect(done).toMatchObject({ status: 302, location: "/admin/profiles?state=deactivated" });
    expect((await readToast(cookieFrom(done.headers)))?.text).toBe(
      "Leo Leaving's card was deactivated: they are signed out and their card is hidden.",
    );

    // The open session is gone, and the stream it held ended.
    expect(await db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    expect(await getOptionalViewer(getRequest("/", member.cookie))).toBeNull();
    await stream.ended;
    expect(openStreamCount()).toBe(0);

    // The right password hears why; a wrong one hears what anyone hears, so nothing is revealed.
    const refused = await signIn(member.email, MEMBER_PASSWORD);
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ formError: DEACTIVATED_SIGN_IN });
    expect(await db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    const wrong = await signIn(member.email, "not the password");
    expect(wrong.data).toMatchObject({ formError: "Invalid email or password" });

    // Reactivated: the same password signs in again and the session holds.
    expect((await setState(admin, member.profile.id, "reactivate")).status).toBe(302);
    const back = await signIn(member.email, MEMBER_PASSWORD);
    expect(back.status).toBe(302);
    expect((await getOptionalViewer(getRequest("/", cookieFrom(back.headers))))?.user.email).toBe(member.email);
  });

  it("takes the card out of the directory and its search, and puts it back on reactivation", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Quinn", lastName: "Quitting" });
    const colleague = await createMember({ firstName: "Cara", lastName: "Colleague" });
    const search = async (query: string) => {
      const result = await run(
        directoryLoader,
        getRequest(`/directory${query}`, colleague.cookie),
        {},
        colleague.viewer,
      );
      return (result.data as { entries: { firstName: string }[] }).entries.map((entry) => entry.firstName);
    };
    expect(await search("?q=quitting")).toEqual(["Quinn"]);
    expect(await search("")).toContain("Quinn");

    await setState(admin, member.profile.id, "deactivate");
    expect(await search("?q=quitting")).toEqual([]);
    expect(await search("?q=qu")).toEqual([]);
    expect(await search("")).not.toContain("Quinn");
    expect(await search("")).toContain("Cara");

    await setState(admin, member.profile.id, "reactivate");
    expect(await search("?q=quitting")).toEqual(["Quinn"]);
  });

  it("answers 410 Gone at the card, QR page, contact file and images, and at its old username, keeping its views", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Gia", lastName: "Gone" });
    const { username, id } = member.profile;
    await db.insert(profileViews).values([
      { profileId: id, source: "qr" },
      { profileId: id, source: "link" },
    ]);
    await db.update(profiles).set({ viewCount: 2 }).where(eq(profiles.id, id));
    const before = await publicStatuses(username);
    for (const answer of Object.values(before)) expect(answer.status).toBe(200);

    // An old name of the card: it redirects to the card while the card is active.
    await db.insert(usernameRedirects).values({ username: "gia.before", profileId: id });
    expect(await movedCardAddress(new URL("http://localhost/profile/gia.before"))).toBe(`/profile/${username}`);

    await setState(admin, id, "deactivate");
    const after = await publicStatuses(username);
    for (const [name, answer] of Object.entries(after)) expect(answer.status, name).toBe(410);
    // The old name no longer leads to the card's name now, and answers the same.
    expect(await movedCardAddress(new URL("http://localhost/profile/gia.before"))).toBeNull();
    for (const answer of Object.values(await publicStatuses("gia.before"))) expect(answer.status).toBe(410);
    // A name no card ever had is still simply not found.
    expect((await run(cardLoader, getRequest("/profile/nobody.here"), { username: "nobody.here" })).status).toBe(404);

    // Views and history are kept.
    const [row] = await db.select().from(profiles).where(eq(profiles.id, id));
    // (The visit above counted one more, written with the next batch.)
    expect(row).toMatchObject({ userId: member.id, username });
    expect(row?.viewCount).toBeGreaterThanOrEqual(2);
    expect((await db.select().from(profileViews).where(eq(profileViews.profileId, id))).length).toBeGreaterThanOrEqual(
      2,
    );

    await setState(admin, id, "reactivate");
    for (const answer of Object.values(await publicStatuses(username))) expect(answer.status).toBe(200);
    expect(await movedCardAddress(new URL("http://localhost/profile/gia.before"))).toBe(`/profile/${username}`);
  });

  it("answers a deactivated person's photo no more, in either format, and caches keep it five minutes only", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Pia", lastName: "Pictured" });
    const photo = `profiles/${"ab12".repeat(8)}.webp`;
    await getStorage().put(photo, new Uint8Array([1, 2, 3]), "image/webp");
    await getStorage().put(photo.replace(".webp", ".jpg"), new Uint8Array([4, 5, 6]), "image/jpeg");
    await db.update(profiles).set({ profilePhoto: photo }).where(eq(profiles.id, member.profile.id));
    const fetchPhoto = async (key: string, headers: Record<string, string> = {}) => {
      try {
        const answer = (await uploadsLoader({
          params: { "*": key },
          request: new Request(`http://localhost:3000/uploads/${key}`, { headers }),
        } as never)) as Response;
        return {
          status: answer.status,
          cacheControl: answer.headers.get("cache-control"),
          etag: answer.headers.get("etag"),
        };
      } catch (thrown) {
        if (thrown instanceof Response) return { status: thrown.status, cacheControl: null, etag: null };
        throw thrown;
      }
    };
    const keys = [photo, photo.replace(".webp", ".jpg")];
    for (const key of keys) {
      expect(await fetchPhoto(key)).toMatchObject({ status: 200, cacheControl: "public, max-age=300" });
    }
    // A copy still current is confirmed without its bytes.
    const { etag } = await fetchPhoto(photo);
    expect((await fetchPhoto(photo, { "if-none-match": etag ?? "" })).status).toBe(304);

    await setState(admin, member.profile.id, "deactivate");
    for (const key of keys) expect((await fetchPhoto(key)).status).toBe(404);
    // Asking whether a kept copy is current gets no confirmation either.
    expect((await fetchPhoto(photo, { "if-none-match": etag ?? "" })).status).toBe(404);
    // A photo no card shows is not answered at all.
    expect((await fetchPhoto(`profiles/${"cd34".repeat(8)}.webp`)).status).toBe(404);

    await setState(admin, member.profile.id, "reactivate");
    for (const key of keys) expect((await fetchPhoto(key)).status).toBe(200);
  });

  it("redirects to the card's brand website when the settings say so, and answers 410 when its brand has none", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const [withSite] = await db
      .insert(brands)
      .values({ name: "Sited", website: "https://sited.example.com/" })
      .returning();
    const [withoutSite] = await db.insert(brands).values({ name: "Unsited" }).returning();
    const one = await createMember({ firstName: "Rae", lastName: "Redirected" });
    const two = await createMember({ firstName: "Nia", lastName: "Nowhere" });
    await db.update(profiles).set({ companyBrandId: withSite!.id }).where(eq(profiles.id, one.profile.id));
    await db.update(profiles).set({ companyBrandId: withoutSite!.id }).where(eq(profiles.id, two.profile.id));
    await setState(admin, one.profile.id, "deactivate");
    await setState(admin, two.profile.id, "deactivate");

    // The default: the calm 410 page, whatever the brand.
    expect((await publicStatuses(one.profile.username))["card page"]).toEqual({ status: 410, location: null });

    await db.insert(siteSettings).values({ id: 1, deactivatedCards: "brand-website" });
    for (const [name, answer] of Object.entries(await publicStatuses(one.profile.username))) {
      expect(answer, name).toEqual({ status: 302, location: "https://sited.example.com/" });
    }
    for (const [name, answer] of Object.entries(await publicStatuses(two.profile.username))) {
      expect(answer.status, name).toBe(410);
    }
  });

  it("tells a visitor of a deactivated card how to reach its company instead: the brand's website, the company's email and phone", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    await db.insert(siteSettings).values({
      id: 1,
      companyName: "Northwind Group",
      website: "https://northwind.example/",
      email: "hello@northwind.example",
      phone: "+44 20 7946 0000",
    });
    const [brand] = await db
      .insert(brands)
      .values({ name: "Northwind Labs", website: "https://labs.example/" })
      .returning();
    const branded = await createMember({ firstName: "Ben", lastName: "Branded" });
    const plain = await createMember({ firstName: "Pia", lastName: "Plain" });
    await db.update(profiles).set({ companyBrandId: brand!.id }).where(eq(profiles.id, branded.profile.id));
    await setState(admin, branded.profile.id, "deactivate");
    await setState(admin, plain.profile.id, "deactivate");
    const gone = async (username: string) => {
      const answer = await run(cardLoader, getRequest(`/profile/${username}`), { username });
      expect(answer.status).toBe(410);
      return (answer.data as { contact: unknown }).contact;
    };
    expect(await gone(branded.profile.username)).toEqual({
      name: "Northwind Labs",
      email: "hello@northwind.example",
      phone: "+44 20 7946 0000",
      website: "https://labs.example/",
      logoUrl: null,
    });
    expect(await gone(plain.profile.username)).toEqual({
      name: "Northwind Group",
      email: "hello@northwind.example",
      phone: "+44 20 7946 0000",
      website: "https://northwind.example/",
      logoUrl: null,
    });
    // A brand with a logo and a main phone on every card shows both where the card was.
    await db
      .update(brands)
      .set({
        logo: "brands/labs-logo.png",
        template: { phone: { visibility: null, locked: true, value: "+44 20 7946 0100" } },
      })
      .where(eq(brands.id, brand!.id));
    expect(await gone(branded.profile.username)).toMatchObject({
      phone: "+44 20 7946 0100",
      logoUrl: expect.stringContaining("brands/labs-logo.png"),
    });
  });

  it("shows each card's state in profile management, filters by it, and refuses to switch off the administrator's own card", async () => {
    const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
    const member = await createMember({ firstName: "Fil", lastName: "Tered" });
    await setState(admin, member.profile.id, "deactivate");
    const list = async (query: string) => {
      const result = await run(profilesLoader, getRequest(`/admin/profiles${query}`, admin.cookie), {}, admin.viewer);
      const data = result.data as { management: { rows: { firstName: string; deactivated: boolean }[] } };
      return data.management.rows.map((row) => `${row.firstName}:${row.deactivated ? "off" : "on"}`).sort();
    };
    expect(await list("")).toEqual(["Ada:on", "Fil:off"]);
    expect(await list("?state=deactivated")).toEqual(["Fil:off"]);
    expect(await list("?state=active")).toEqual(["Ada:on"]);

    const own = await setState(admin, admin.profile.id, "deactivate");
    expect(own.status).toBe(400);
    expect(own.data).toMatchObject({ fieldErrors: { id: ["You cannot deactivate your own card."] } });
    const [mine] = await db.select().from(profiles).where(eq(profiles.id, admin.profile.id));
    expect(mine?.deactivatedAt).toBeNull();

    // A member cannot switch anyone's card off.
    const form = new FormData();
    form.set("intent", "deactivate");
    form.set("id", admin.profile.id);
    const refused = await run(profilesAction, await multipartRequest("/admin/profiles", form), {}, member.viewer);
    expect(refused.status).toBe(403);
  });

  it("deleting instead erases the card with its views", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Era", lastName: "Sed" });
    await db.insert(profileViews).values({ profileId: member.profile.id, source: "qr" });
    await setState(admin, member.profile.id, "deactivate");
    const form = new FormData();
    form.set("intent", "delete");
    form.set("id", member.profile.id);
    expect((await run(profilesAction, await multipartRequest("/admin/profiles", form), {}, admin.viewer)).status).toBe(
      302,
    );
    expect(await db.select().from(profiles).where(eq(profiles.id, member.profile.id))).toEqual([]);
    expect(await db.select().from(profileViews).where(eq(profileViews.profileId, member.profile.id))).toEqual([]);
    // The address is now simply unknown.
    const { username } = member.profile;
    expect((await run(cardLoader, getRequest(`/profile/${username}`), { username })).status).toBe(404);
  });
});

describe("deleting a claimed card", () => {
  listenForEvents();

  for (const deactivatedFirst of [false, true]) {
    it(`signs its owner out everywhere and they cannot sign in again${deactivatedFirst ? ", after a deactivation too" : ""}`, async () => {
      const admin = await createMember({ email: "admin@example.com" });
      const member = await createMember({ firstName: "Gina", lastName: "Gone" });
      const stream = await openStream(member.cookie);
      expect(stream.status).toBe(200);
      if (deactivatedFirst) await setState(admin, member.profile.id, "deactivate");

      const done = await setState(admin, member.profile.id, "delete");
      expect(done.status).toBe(302);
      // The account goes with the card: no session, no password, nothing to sign in to.
      expect(await db.select().from(users).where(eq(users.id, member.id))).toEqual([]);
      expect(await db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
      expect(await db.select().from(accounts).where(eq(accounts.userId, member.id))).toEqual([]);
      expect(await getOptionalViewer(getRequest("/", member.cookie))).toBeNull();
      await stream.ended;
      const refused = await signIn(member.email, MEMBER_PASSWORD);
      expect(refused.status).toBe(400);
      expect(refused.data).toMatchObject({ formError: "Invalid email or password" });
    });
  }

  it("refuses an administrator's deletion of their own card, and changes nothing", async () => {
    const admin = await createMember({ email: "admin@example.com", firstName: "Ada" });
    const answer = await setState(admin, admin.profile.id, "delete");
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({ fieldErrors: { id: ["You cannot delete your own card."] } });
    expect(await db.select().from(profiles).where(eq(profiles.id, admin.profile.id))).toHaveLength(1);
    expect(await db.select().from(users).where(eq(users.id, admin.id))).toHaveLength(1);
    expect(await getOptionalViewer(getRequest("/", admin.cookie))).not.toBeNull();
  });
});
