import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
// @ts-expect-error s3rver ships no type declarations
import S3rver from "s3rver";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import { brands, profiles } from "~/.server/platform/db/schema";
import { StorageError } from "~/.server/platform/errors";
import { storeProfilePhoto } from "~/.server/platform/images";
import { createDiskStorage, createS3Storage, setStorage } from "~/.server/platform/storage";
import { action as brandsAction } from "~/routes/admin/brands";
import { action as dashboardAction } from "~/routes/admin/profiles";
import { action as createAction } from "~/routes/admin/profiles-create";
import { action as editAction } from "~/routes/app/profile-edit";
import { expectConsoleError } from "../support/console";
import { makeReadOnly, makeWritable } from "../support/read-only";
import { cookieFrom, createMember, multipartRequest, run } from "./helpers";

const PHOTO_SKIPPED = "Failed to upload profile image. Profile will be updated without new image.";

async function png(color: string, size = 160) {
  return sharp({ create: { width: size, height: size, channels: 3, background: color } })
    .png()
    .toBuffer();
}

function form(fields: Record<string, string>, files: Record<string, Buffer> = {}) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  for (const [name, bytes] of Object.entries(files)) {
    data.set(name, new File([new Uint8Array(bytes)], `${name}.png`, { type: "image/png" }));
  }
  return data;
}

/** Every file under a folder, as paths relative to it. */
function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-uploads-"));
  setStorage(createDiskStorage(root));
});
afterEach(() => setStorage(undefined));

describe("uploads that never collide or leave debris", () => {
  it("stores the same image five times at the same moment, every time, leaving only the two renditions", async () => {
    const bytes = new Uint8Array(await png("#3366ff"));
    const keys = await Promise.all(Array.from({ length: 5 }, () => storeProfilePhoto(bytes)));
    expect(new Set(keys).size).toBe(1);
    const key = keys[0]!;
    expect(filesUnder(root)).toEqual([key.replace(/\.webp$/, ".jpg"), key].sort());
  });

  it("leaves no partial or temporary file when the disk refuses the write", async () => {
    fs.mkdirSync(path.join(root, "profiles"));
    makeReadOnly(path.join(root, "profiles"));
    try {
      await expect(storeProfilePhoto(new Uint8Array(await png("#ff3366")))).rejects.toBeInstanceOf(StorageError);
    } finally {
      makeWritable(path.join(root, "profiles"));
    }
    expect(filesUnder(root)).toEqual([]);
  });

  it("removes the first rendition when the second cannot be written: no orphan WebP without its JPEG", async () => {
    const bytes = new Uint8Array(await png("#22aa55"));
    // Learn the content-addressed key in a scratch store, then block the JPEG's name with a folder.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-scratch-"));
    setStorage(createDiskStorage(scratch));
    const key = await storeProfilePhoto(bytes);
    setStorage(createDiskStorage(root));
    fs.mkdirSync(path.join(root, key.replace(/\.webp$/, ".jpg")), { recursive: true });

    await expect(storeProfilePhoto(bytes)).rejects.toBeInstanceOf(StorageError);
    expect(filesUnder(root)).toEqual([]);
  });
});

/** What the server logs when a store fails: an operator must hear of it. */
const STORE_FAILED = /^\[images\] storing the (profile photo|brand logo|brand cover) failed: /;

/** Two ways the store fails: a read-only upload folder, and an S3 server that has stopped. */
const FAILURES = [
  {
    name: "a read-only upload folder",
    async fail() {
      expectConsoleError(STORE_FAILED);
      makeReadOnly(root);
      return async () => makeWritable(root);
    },
  },
  {
    name: "S3 stopped",
    async fail() {
      expectConsoleError(STORE_FAILED);
      const instance = new S3rver({
        address: "127.0.0.1",
        port: 0,
        silent: true,
        directory: fs.mkdtempSync(path.join(os.tmpdir(), "namecard-s3-")),
        configureBuckets: [{ name: "cards", configs: [] }],
      });
      const address = (await instance.run()) as { port: number };
      setStorage(
        createS3Storage({
          endpoint: `http://127.0.0.1:${address.port}`,
          bucket: "cards",
          region: "us-east-1",
          accessKeyId: "S3RVER",
          secretAccessKey: "S3RVER",
        }),
      );
      await instance.close();
      return async () => {};
    },
  },
];

describe.each(FAILURES)("every image form when the store fails ($name)", ({ fail }) => {
  const typed = {
    firstName: "Kept",
    lastName: "Typing",
    title: "Typed before the failure",
    phone: "+1 555 0100",
    bio: "Still here.",
    linkedinUrl: "",
    companyBrandId: "",
  };

  it("a member's own edit saves everything but the photo and says so", async () => {
    const member = await createMember({ firstName: "Kept", lastName: "Typing" });
    const recover = await fail();
    try {
      const result = await run(
        editAction,
        await multipartRequest(
          "/profile/edit",
          form({ ...typed, email: member.email, username: "kept.own" }, { photo: await png("#aa0000") }),
          member,
        ),
        {},
        member.viewer,
      );
      expect(result).toMatchObject({ status: 302, location: "/profile/kept.own" });
      expect((await readToast(cookieFrom(result.headers)))?.text).toBe(
        `Profile updated successfully for Kept Typing! ${PHOTO_SKIPPED}`,
      );
    } finally {
      await recover();
    }
    const [row] = await db.select().from(profiles).where(eq(profiles.id, member.viewer.profile!.id));
    expect(row).toMatchObject({ title: typed.title, bio: typed.bio, username: "kept.own", profilePhoto: null });
  });

  it("the administrator's edit saves everything but the photo and says so", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Kept", lastName: "Typing" });
    const recover = await fail();
    try {
      const result = await run(
        dashboardAction,
        await multipartRequest(
          "/admin/profiles",
          form(
            { ...typed, intent: "update", id: member.viewer.profile!.id, email: member.email, username: "kept.dash" },
            { photo: await png("#00aa00") },
          ),
        ),
        {},
        admin.viewer,
      );
      expect(result).toMatchObject({ status: 302, location: "/admin/profiles" });
      expect((await readToast(cookieFrom(result.headers)))?.text).toBe(
        `Profile updated successfully for Kept Typing! ${PHOTO_SKIPPED}`,
      );
    } finally {
      await recover();
    }
    const [row] = await db.select().from(profiles).where(eq(profiles.id, member.viewer.profile!.id));
    expect(row).toMatchObject({ title: typed.title, username: "kept.dash", profilePhoto: null });
  });

  it("the administrator's create makes the card without the photo and warns, never silently", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const recover = await fail();
    try {
      const result = await run(
        createAction,
        await multipartRequest(
          "/admin/profiles/new",
          form({ ...typed, email: "kept.new@example.org", username: "kept.new" }, { photo: await png("#0000aa") }),
        ),
        {},
        admin.viewer,
      );
      expect(result).toMatchObject({ status: 302, location: "/admin/profiles" });
      const toast = await readToast(cookieFrom(result.headers));
      expect(toast?.text).toContain("Failed to upload image");
      expect(toast?.text).toContain("Profile created for Kept Typing");
    } finally {
      await recover();
    }
    const [row] = await db.select().from(profiles).where(eq(profiles.username, "kept.new"));
    expect(row).toMatchObject({ title: typed.title, email: "kept.new@example.org", profilePhoto: null });
  });

  it("the brand form says which image failed, keeps what was typed and saves nothing", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const recover = await fail();
    let result: Awaited<ReturnType<typeof run>>;
    try {
      result = await run(
        brandsAction,
        await multipartRequest(
          "/admin/brands",
          form(
            {
              intent: "create",
              name: "Kept Brand",
              primaryColor: "#123456",
              secondaryColor: "#654321",
              website: "",
              active: "on",
            },
            { logo: await png("#111111"), cover: await png("#222222", 400) },
          ),
        ),
        {},
        admin.viewer,
      );
    } finally {
      await recover();
    }
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      fieldErrors: {
        logo: ["Failed to upload logo. Please try again."],
        cover: ["Failed to upload cover image. Please try again."],
      },
      values: { name: "Kept Brand", primaryColor: "#123456" },
    });
    expect(await db.select().from(brands)).toEqual([]);
  });
});
