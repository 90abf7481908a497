import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import { auditLog, profiles, usernameRedirects } from "~/.server/platform/db/schema";
import { ConflictError, ValidationError } from "~/.server/platform/errors";
import { deleteProfile } from "~/.server/profiles/delete-profile";
import {
  DELETED_CARD_NAMES_DAYS,
  MAX_PREVIOUS_USERNAMES,
  MEMBER_RENAMES,
  movedCardAddress,
  OLD_USERNAME_DAYS,
} from "~/.server/profiles/previous-usernames";
import { USERNAME_TAKEN } from "~/.server/profiles/schemas";
import { updateProfile } from "~/.server/profiles/update-profile";
import { previousUsernameMiddleware } from "~/middleware/previous-username.server";
import { action as profilesAction, loader as profilesLoader } from "~/routes/admin/profiles";
import { BASE, cookieFrom, createMember, formRequest, getRequest, run } from "./helpers";

type Member = Awaited<ReturnType<typeof createMember>>;

function fieldsOf(member: Member, username: string) {
  return {
    firstName: member.profile.firstName,
    lastName: member.profile.lastName,
    username,
    email: member.email,
    title: null,
    phone: null,
    bio: null,
    linkedinUrl: null,
    department: null,
    office: null,
    pronouns: null,
    languages: null,
    links: [],
    companyBrandId: null,
  };
}

function rename(member: Member, username: string) {
  return updateProfile({
    actor: member.viewer,
    profileId: member.profile.id,
    fields: fieldsOf(member, username),
    photo: { kind: "keep" },
  });
}

const asAdministrator = (member: Member) => ({ ...member.viewer, role: "admin", isAdmin: true }) as never;

function renameAs(actor: Member["viewer"], member: Member, username: string) {
  return updateProfile({
    actor,
    profileId: member.profile.id,
    fields: fieldsOf(member, username),
    photo: { kind: "keep" },
  });
}

/** What the app answers for a GET of `path` before any route runs. */
async function answer(path: string) {
  const request = new Request(`${BASE}${path}`);
  try {
    await previousUsernameMiddleware(
      { request, params: {}, context: {} as never, url: new URL(request.url), pattern: "" } as never,
      async () => new Response("the route", { status: 200 }),
    );
    return { status: 200, location: null };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { status: thrown.status, location: thrown.headers.get("location") };
  }
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe("links that outlive a username change", () => {
  it("sends the old card, QR page, contact file and QR image to the new name with a redirect no browser keeps", async () => {
    const member = await createMember();
    const [old, now] = [`old.${unique()}`, `new.${unique()}`];
    await rename(member, old);
    await rename(member, now);

    expect(await answer(`/profile/${old}`)).toEqual({ status: 307, location: `/profile/${now}` });
    expect(await answer(`/profile/${old.toUpperCase()}?src=qr`)).toEqual({
      status: 307,
      location: `/profile/${now}?src=qr`,
    });
    expect(await answer(`/qr/${old}`)).toEqual({ status: 307, location: `/qr/${now}` });
    expect(await answer(`/profile/${old}/contact.vcf`)).toEqual({
      status: 307,
      location: `/profile/${now}/contact.vcf`,
    });
    expect(await answer(`/profile/${old}/qr.png`)).toEqual({ status: 307, location: `/profile/${now}/qr.png` });
    // The card's own name, an unknown one and other screens pass through.
    expect((await answer(`/profile/${now}`)).status).toBe(200);
    expect((await answer(`/profile/nobody.${unique()}`)).status).toBe(200);
    expect((await answer("/profile/edit")).status).toBe(200);
    expect(await movedCardAddress(new URL(`${BASE}/directory`))).toBeNull();
  });

  it("follows a chain of renames to the card's name now", async () => {
    const member = await createMember();
    const [first, second, third] = [`a.${unique()}`, `b.${unique()}`, `c.${unique()}`];
    await rename(member, first);
    await rename(member, second);
    await rename(member, third);
    expect((await answer(`/profile/${first}`)).location).toBe(`/profile/${third}`);
    expect((await answer(`/profile/${second}`)).location).toBe(`/profile/${third}`);
  });

  it("keeps the old name from anyone else while it redirects, but its owner may take it back", async () => {
    const owner = await createMember();
    const other = await createMember();
    const [old, now] = [`kept.${unique()}`, `moved.${unique()}`];
    await rename(owner, old);
    await rename(owner, now);

    const taken = await rename(other, old).catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(ConflictError);
    expect((taken as ConflictError).fieldErrors.username).toEqual([USERNAME_TAKEN]);

    await rename(owner, old);
    expect((await answer(`/profile/${old}`)).status).toBe(200);
    expect((await answer(`/profile/${now}`)).location).toBe(`/profile/${old}`);
  });

  it("keeps a card's three newest old names, and frees older ones for others", async () => {
    const member = await createMember();
    const admin = await createMember();
    expect(MAX_PREVIOUS_USERNAMES).toBe(3);
    const names = Array.from({ length: 6 }, (_, index) => `n${index}.${unique()}`);
    // An administrator renames it (a member may rename their own card three times a month).
    for (const name of names) await renameAs(asAdministrator(admin), member, name);
    // The card is at names[5]; of names[0..4], the three newest still lead to it.
    for (const name of names.slice(2, 5)) {
      expect(await answer(`/profile/${name}`), name).toEqual({ status: 307, location: `/profile/${names[5]}` });
    }
    for (const name of names.slice(0, 2)) expect((await answer(`/profile/${name}`)).status, name).toBe(200);
    // A name the card let go is anyone's again.
    const other = await createMember();
    await expect(rename(other, names[0]!)).resolves.toBeDefined();
    await expect(rename(other, names[3]!)).rejects.toBeInstanceOf(ConflictError);
  });

  it("lets an administrator release a card's old name for someone else, on the record; members cannot", async () => {
    const owner = await createMember();
    const admin = await createMember({ email: "admin@example.com" });
    const other = await createMember();
    const [old, now] = [`ceo.${unique()}`, `moved.${unique()}`];
    await rename(owner, old);
    await rename(owner, now);
    // Even an administrator cannot take it by typing it: the card's printed codes would lead to a stranger.
    await expect(renameAs(asAdministrator(admin), other, old)).rejects.toBeInstanceOf(ConflictError);

    const list = await run(profilesLoader, getRequest(`/admin/profiles?q=${now}`), {}, admin.viewer);
    const rows = (list.data as { management: { rows: { id: string; oldUsernames: string[] }[] } }).management.rows;
    // Newest first: the name it had before this one, then the one it was made with.
    expect(rows.find((row) => row.id === owner.profile.id)?.oldUsernames).toEqual([
      old,
      owner.profile.username.toLowerCase(),
    ]);

    const release = (who: Member) =>
      run(
        profilesAction,
        formRequest("/admin/profiles", { intent: "release-username", id: owner.profile.id, username: old }),
        {},
        who.viewer,
      );
    expect((await release(owner)).status).toBe(403);
    expect((await answer(`/profile/${old}`)).location).toBe(`/profile/${now}`);
    const released = await release(admin);
    expect(released.status).toBe(302);
    expect((await readToast(cookieFrom(released.headers)))?.text).toBe(
      `${old} is free: it no longer leads to this card.`,
    );
    expect((await answer(`/profile/${old}`)).status).toBe(200);
    await expect(rename(other, old)).resolves.toBeDefined();
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, owner.profile.id), eq(auditLog.actorEmail, admin.email)));
    expect(entry).toMatchObject({ action: "update", actorEmail: admin.email, changes: { oldUsername: [old, null] } });
    // Released twice: it is no longer the card's.
    expect((await release(admin)).status).toBe(404);
  });

  it("lets a member change their own username three times in thirty days, then says when again, changing nothing", async () => {
    const member = await createMember();
    const names = Array.from({ length: 4 }, (_, index) => `r${index}.${unique()}`);
    for (const name of names.slice(0, MEMBER_RENAMES.max)) await rename(member, name);
    const refused = await rename(member, names[3]!).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).fieldErrors.username?.[0]).toMatch(
      /^You can change your username 3 times in 30 days\. You can change it again on \d{1,2} \w+ \d{4}\.$/,
    );
    const [row] = await db
      .select({ username: profiles.username })
      .from(profiles)
      .where(eq(profiles.id, member.profile.id));
    expect(row?.username).toBe(names[2]);
    // Other edits still save, and an administrator may still rename the card.
    await expect(rename(member, names[2]!)).resolves.toBeDefined();
    const admin = await createMember();
    await expect(renameAs(asAdministrator(admin), member, names[3]!)).resolves.toBeDefined();
  });

  it("lets an old name expire after a year: it leads nowhere and anyone may take it", async () => {
    const owner = await createMember();
    const other = await createMember();
    const [old, now] = [`aged.${unique()}`, `fresh.${unique()}`];
    await rename(owner, old);
    await rename(owner, now);
    const [kept] = await db.select().from(usernameRedirects).where(eq(usernameRedirects.username, old));
    const days = ((kept?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(OLD_USERNAME_DAYS);
    await db
      .update(usernameRedirects)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(usernameRedirects.username, old));
    expect((await answer(`/profile/${old}`)).status).toBe(200);
    await expect(rename(other, old)).resolves.toBeDefined();
  });

  it("keeps a deleted card's name and old names for ninety days, leading nowhere, so its printed codes reach no stranger", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const gone = await createMember();
    const other = await createMember();
    const [old, last] = [`was.${unique()}`, `gone.${unique()}`];
    await rename(gone, old);
    await rename(gone, last);
    await deleteProfile({ actor: asAdministrator(admin), profileId: gone.profile.id });

    for (const name of [old, last]) {
      // Nobody's card answers it (the route finds no card: not found)…
      expect((await answer(`/profile/${name}`)).status, name).toBe(200);
      // …and nobody may take it while it is reserved.
      await expect(rename(other, name), name).rejects.toBeInstanceOf(ConflictError);
      const [reserved] = await db.select().from(usernameRedirects).where(eq(usernameRedirects.username, name));
      expect(reserved?.profileId).toBeNull();
      expect(Math.round(((reserved?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000)).toBe(
        DELETED_CARD_NAMES_DAYS,
      );
    }
    await db
      .update(usernameRedirects)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(usernameRedirects.username, last));
    await expect(rename(other, last)).resolves.toBeDefined();
  });
});
