import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import { profiles } from "~/.server/platform/db/schema";
import { NotFoundError } from "~/.server/platform/errors";
import { createS3Storage, setStorage } from "~/.server/platform/storage";
import { deleteProfile } from "~/.server/profiles/delete-profile";
import { updateProfile } from "~/.server/profiles/update-profile";
import { action as dashboardAction } from "~/routes/admin/profiles";
import { action as editAction } from "~/routes/app/profile-edit";
import { expectConsoleError } from "../support/console";
import { cookieFrom, createMember, multipartRequest, run } from "./helpers";

const FIELDS = {
  firstName: "Same",
  lastName: "Path",
  title: "",
  phone: "",
  bio: "",
  linkedinUrl: "",
  companyBrandId: "",
};

async function png(color: string) {
  return sharp({ create: { width: 120, height: 120, channels: 3, background: color } })
    .png()
    .toBuffer();
}

function form(fields: Record<string, string>, photo?: Buffer) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  if (photo) data.set("photo", new File([new Uint8Array(photo)], "photo.png", { type: "image/png" }));
  return data;
}

async function stored(id: string) {
  const [row] = await db.select().from(profiles).where(eq(profiles.id, id));
  return row!;
}

async function toastOf(result: { headers: Headers }) {
  return (await readToast(cookieFrom(result.headers)))?.text;
}

/** A file store that is down: an S3 endpoint where nothing listens. */
function storeIsDown() {
  setStorage(
    createS3Storage({
      endpoint: "http://127.0.0.1:9",
      bucket: "uploads",
      region: "us-east-1",
      accessKeyId: "key",
      secretAccessKey: "secret",
    }),
  );
}

afterEach(() => setStorage(undefined));

describe("one implementation for a member's own edit and the administrator's", () => {
  it("lets a member change only their own card: another's looks exactly like one that does not exist", async () => {
    const member = await createMember();
    const other = await createMember({ firstName: "Other", lastName: "Person" });
    const attempt = updateProfile({
      actor: member.viewer,
      profileId: other.viewer.profile!.id,
      fields: {
        ...FIELDS,
        username: "taken.over",
        email: other.email,
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
      },
      photo: { kind: "keep" },
    });
    await expect(attempt).rejects.toBeInstanceOf(NotFoundError);
    const missing = updateProfile({
      actor: member.viewer,
      profileId: "00000000-0000-4000-8000-000000000000",
      fields: {
        ...FIELDS,
        username: "nobody",
        email: "nobody@example.org",
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
      },
      photo: { kind: "keep" },
    });
    await expect(missing).rejects.toEqual(await attempt.catch((error: unknown) => error));
    expect(await stored(other.viewer.profile!.id)).toMatchObject({
      firstName: "Other",
      username: other.viewer.profile!.username,
    });

    await expect(deleteProfile({ actor: member.viewer, profileId: other.viewer.profile!.id })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await stored(other.viewer.profile!.id)).toBeTruthy();
  });

  it("lets the administrator change any card through the same function", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember();
    const saved = await updateProfile({
      actor: admin.viewer,
      profileId: member.viewer.profile!.id,
      fields: {
        ...FIELDS,
        username: "renamed.by.admin",
        email: member.email,
        title: "Lead",
        phone: null,
        bio: null,
        linkedinUrl: null,
        department: null,
        office: null,
        pronouns: null,
        languages: null,
        links: [],
        companyBrandId: null,
      },
      photo: { kind: "keep" },
    });
    expect(saved).toMatchObject({ photoSkipped: false, profile: { username: "renamed.by.admin" } });
    expect(await stored(member.viewer.profile!.id)).toMatchObject({ username: "renamed.by.admin", title: "Lead" });
  });

  it("saves everything but the photo when the file store is down, from the member's page and the dashboard alike", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember();
    const id = member.viewer.profile!.id;
    storeIsDown();
    // The failed upload is logged for the operator: the one error this test expects.
    expectConsoleError(/^\[images\] storing the profile photo failed: fetch failed/);

    const own = await run(
      editAction,
      await multipartRequest(
        "/profile/edit",
        form({ ...FIELDS, title: "Typed by me", email: member.email, username: "my.own.card" }, await png("#ff0000")),
        member,
      ),
      {},
      member.viewer,
    );
    expect(own).toMatchObject({ status: 302, location: "/profile/my.own.card" });
    expect(await toastOf(own)).toBe(
      "Profile updated successfully for Same Path! Failed to upload profile image. Profile will be updated without new image.",
    );
    expect(await stored(id)).toMatchObject({ title: "Typed by me", username: "my.own.card", profilePhoto: null });

    const dashboard = await run(
      dashboardAction,
      await multipartRequest(
        "/admin/profiles",
        form(
          {
            ...FIELDS,
            intent: "update",
            id,
            title: "Typed by the admin",
            email: member.email,
            username: "my.own.card",
          },
          await png("#00ff00"),
        ),
      ),
      {},
      admin.viewer,
    );
    expect(dashboard).toMatchObject({ status: 302, location: "/admin/profiles" });
    expect(await toastOf(dashboard)).toBe(
      "Profile updated successfully for Same Path! Failed to upload profile image. Profile will be updated without new image.",
    );
    expect(await stored(id)).toMatchObject({ title: "Typed by the admin", profilePhoto: null });
  });

  it("answers a file that is not an image with a message on the photo, keeping what was typed, on both pages", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember();
    const id = member.viewer.profile!.id;
    const notAnImage = Buffer.from("plain text, not a picture");
    const typed = { ...FIELDS, title: "Kept on the form", email: member.email, username: "kept.typing" };

    const results = [
      await run(
        editAction,
        await multipartRequest("/profile/edit", form(typed, notAnImage), member),
        {},
        member.viewer,
      ),
      await run(
        dashboardAction,
        await multipartRequest("/admin/profiles", form({ ...typed, intent: "update", id }, notAnImage)),
        {},
        admin.viewer,
      ),
    ];
    for (const result of results) {
      expect(result.status).toBe(400);
      expect(result.data).toMatchObject({
        fieldErrors: { photo: ["This file is not an image we can read. Use a JPG, PNG or WebP file."] },
        values: { title: "Kept on the form", username: "kept.typing" },
      });
    }
    expect((await stored(id)).title).toBeNull();
  });
});

describe("all errors of a submit in one round", () => {
  it("reports a taken username and email together with a malformed phone, and saves nothing", async () => {
    const member = await createMember({ firstName: "One", lastName: "Round" });
    const other = await createMember({ firstName: "Taken", lastName: "Already" });
    const result = await run(
      editAction,
      await multipartRequest(
        "/profile/edit",
        form({ ...FIELDS, phone: "call me", email: other.email, username: other.profile.username }),
        member,
      ),
      {},
      member.viewer,
    );
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      fieldErrors: {
        phone: [
          "Enter a phone number such as +49 30 1234 5678 (digits, spaces, + ( ) -), and an extension as ext. 123",
        ],
        username: ["Username already exists. Please choose a different one."],
        email: ["Email already exists. Please use a different email address."],
      },
    });
    expect((await stored(member.profile.id)).username).toBe(member.profile.username);
  });
});
