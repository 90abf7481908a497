import { describe, expect, it } from "vitest";
import { ConflictError } from "~/.server/errors";
import { createProfile } from "~/.server/profiles/create-profile";
import { MAX_PREVIOUS_USERNAMES, movedCardAddress } from "~/.server/profiles/previous-usernames";
import { USERNAME_TAKEN } from "~/.server/profiles/schemas";
import { updateProfile } from "~/.server/profiles/update-profile";
import { previousUsernameMiddleware } from "~/middleware/previous-username.server";
import { BASE, createMember } from "./helpers";

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

    const admin = await createMember();
    const created = createProfile({
      actor: { ...admin.viewer, role: "admin", isAdmin: true } as never,
      fields: { ...fieldsOf(other, old), email: `prepared.${unique()}@example.org` },
      photo: { kind: "keep" },
    });
    await expect(created).rejects.toBeInstanceOf(ConflictError);

    await rename(owner, old);
    expect((await answer(`/profile/${old}`)).status).toBe(200);
    expect((await answer(`/profile/${now}`)).location).toBe(`/profile/${old}`);
  });

  it("keeps a card's three newest old names, and frees older ones for others", async () => {
    const member = await createMember();
    expect(MAX_PREVIOUS_USERNAMES).toBe(3);
    const names = Array.from({ length: 6 }, (_, index) => `n${index}.${unique()}`);
    for (const name of names) await rename(member, name);
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
});
