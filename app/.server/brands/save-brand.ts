import { eq, ne } from "drizzle-orm";
import { can, decide } from "~/lib/permissions";
import { changedFields, recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { brands } from "../platform/db/schema";
import { assertUnchangedSince } from "../platform/edit-version";
import { ForbiddenError, NotFoundError, ValidationError } from "../platform/errors";
import {
  deleteImageIfUnused,
  type FormImage,
  type ImageChange,
  nextImageKey,
  storeBrandImage,
  storedKey,
  storeFormImage,
} from "../platform/images";
import { publish } from "../platform/realtime";
import { domainsByBrand, setBrandDomains } from "./domains";
import type { BrandFields } from "./schemas";

const UPLOAD_FAILED = {
  logo: "Failed to upload logo. Please try again.",
  cover: "Failed to upload cover image. Please try again.",
};

/** Stores a new image; a bad file or a failed store is a message on that field. */
async function store(change: ImageChange, kind: "logo" | "cover"): Promise<{ stored: FormImage; error?: string }> {
  const stored = await storeFormImage(change, (bytes) => storeBrandImage(bytes, kind), `brand ${kind}`);
  if (stored.outcome === "invalid") return { stored, error: stored.message };
  if (stored.outcome === "storage-failed") return { stored, error: UPLOAD_FAILED[kind] };
  return { stored };
}

export type SaveBrandOptions = {
  actor: Actor;
  /** The brand to update; absent to create one. */
  brandId?: number;
  /** The brand's version the form was opened on: a save over someone else's later change is refused. */
  version?: Date;
  fields: BrandFields;
  logo: ImageChange;
  cover: ImageChange;
};

/**
 * Creates or updates a brand with its logo and cover. Administrators create
 * brands and switch them on and off; a brand administrator changes the look
 * and rules of their own brands, and another brand is not found for them.
 */
export async function saveBrand({ actor, brandId, version, fields: submitted, logo, cover }: SaveBrandOptions) {
  if (brandId === undefined ? !can(actor.role, "create:brand:any") : !decide(actor, "manage:brand")) {
    throw new ForbiddenError();
  }
  let current: typeof brands.$inferSelect | null = null;
  if (brandId !== undefined) {
    [current = null] = await db.select().from(brands).where(eq(brands.id, brandId));
    if (!current || !decide(actor, "manage:brand", { brandId: current.id })) throw new NotFoundError("brand");
    assertUnchangedSince(version, current.updatedAt, "brand");
  }
  // Whether a brand is shown and counted, where people join it and whether it is the default are the whole
  // site's choices: a brand administrator's form keeps them as they are.
  const siteWide = can(actor.role, "manage:brand:any");
  const { emailDomains, ...rest } = submitted;
  const fields = current && !siteWide ? { ...rest, active: current.active, isDefault: current.isDefault } : rest;

  const [storedLogo, storedCover] = await Promise.all([store(logo, "logo"), store(cover, "cover")]);
  if (storedLogo.error || storedCover.error) {
    await Promise.all([
      deleteImageIfUnused(storedKey(storedLogo.stored)),
      deleteImageIfUnused(storedKey(storedCover.stored)),
    ]);
    throw new ValidationError({
      ...(storedLogo.error ? { logo: [storedLogo.error] } : {}),
      ...(storedCover.error ? { cover: [storedCover.error] } : {}),
    });
  }
  const logoKey = nextImageKey(logo, storedLogo.stored, current?.logo ?? null);
  const coverKey = nextImageKey(cover, storedCover.stored, current?.coverImage ?? null);
  const values = { ...fields, logo: logoKey, coverImage: coverKey };
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      let saved: number;
      if (current) {
        // Checked again under the row's lock: a save that began meanwhile finishes first.
        const [locked] = await tx
          .select({ updatedAt: brands.updatedAt })
          .from(brands)
          .where(eq(brands.id, current.id))
          .for("update");
        if (!locked) throw new NotFoundError("brand");
        assertUnchangedSince(version, locked.updatedAt, "brand");
        // One default brand: choosing this one lets go of the other.
        if (values.isDefault) await tx.update(brands).set({ isDefault: false }).where(ne(brands.id, current.id));
        await tx.update(brands).set(values).where(eq(brands.id, current.id));
        saved = current.id;
      } else {
        if (values.isDefault) await tx.update(brands).set({ isDefault: false });
        const [created] = await tx.insert(brands).values(values).returning({ id: brands.id });
        if (!created) throw new Error("Inserting the brand returned no row");
        saved = created.id;
      }
      const changes = changedFields(current, values, ["logo", "coverImage"]);
      if (siteWide && emailDomains !== undefined) {
        const before = current ? ((await domainsByBrand([current.id], tx)).get(current.id) ?? []) : [];
        const after = [...emailDomains].sort();
        await setBrandDomains(tx, saved, after);
        if (before.join() !== after.join()) {
          changes.emailDomains = [before.join(", ") || null, after.join(", ") || null];
        }
      }
      if (!current || Object.keys(changes).length > 0) {
        await recordAdminAction(tx, {
          actor,
          action: current ? "update" : "create",
          target: { kind: "brand", id: saved, label: fields.name },
          changes,
        });
      }
      return saved;
    });
  } catch (error) {
    await Promise.all([
      logoKey !== current?.logo ? deleteImageIfUnused(logoKey) : null,
      coverKey !== current?.coverImage ? deleteImageIfUnused(coverKey) : null,
    ]);
    throw error;
  }
  if (current && logoKey !== current.logo) await deleteImageIfUnused(current.logo);
  if (current && coverKey !== current.coverImage) await deleteImageIfUnused(current.coverImage);
  await publish({ kind: "brand", id: String(id) });
  return { id, created: !current };
}
