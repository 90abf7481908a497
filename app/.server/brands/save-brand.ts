import { asc, eq, or, sql } from "drizzle-orm";
import { data } from "react-router";
import { z } from "zod";
import { HEX_COLOR } from "~/lib/color";
import { OptionalUrlSchema } from "~/lib/profile-schema";
import { type FieldErrors, fieldErrors } from "~/lib/validation";
import { requirePermission, type Viewer } from "./authz";
import { db } from "./db/client";
import { brands, profiles } from "./db/schema";
import { formText } from "./form-data";
import { deleteImageIfUnused, ImageError, storeBrandImage } from "./images";
import { publish } from "./realtime";

const Color = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .regex(HEX_COLOR, `${label} must be a colour like #3b82f6`)
    .transform((value) => value.toLowerCase());

/** Spec §5 "Brand". */
export const BrandSchema = z.object({
  name: z.string().trim().min(1, "Brand name is required").max(80, "Brand name is too long"),
  primaryColor: Color("Primary colour"),
  secondaryColor: Color("Secondary colour"),
  website: OptionalUrlSchema("Website"),
  active: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "true" || value === "1"),
});

export async function listBrandsWithUsage() {
  return db
    .select({
      id: brands.id,
      name: brands.name,
      primaryColor: brands.primaryColor,
      secondaryColor: brands.secondaryColor,
      logo: brands.logo,
      coverImage: brands.coverImage,
      website: brands.website,
      active: brands.active,
      profileCount: sql<number>`(select count(*)::int from ${profiles} as p where p.company_brand_id = ${brands}.id)`,
    })
    .from(brands)
    .orderBy(asc(brands.name));
}

export type BrandActionResult =
  | { ok: true; intent: string; message: string }
  | { ok: false; intent: string; message?: string; errors?: FieldErrors; values?: Record<string, string> };

async function upload(form: FormData, field: "logo" | "cover") {
  const file = form.get(field);
  if (!(file instanceof File) || file.size === 0) return {};
  try {
    return { key: await storeBrandImage(new Uint8Array(await file.arrayBuffer()), field) };
  } catch (error) {
    if (error instanceof ImageError) return { error: error.message };
    console.error(`[brands] ${field} upload failed:`, error);
    return {
      error:
        field === "logo"
          ? "Failed to upload logo. Please try again."
          : "Failed to upload cover image. Please try again.",
    };
  }
}

const IdSchema = z.object({ id: z.coerce.number().int().positive() });

/** Create or update a brand, with its logo and cover (spec §4 brand modal). */
export async function saveBrand(viewer: Viewer, form: FormData, intent: "create" | "update") {
  requirePermission(viewer, "manage:brand:any");
  const values = formText(form);
  const fail = (status: number, result: Omit<Extract<BrandActionResult, { ok: false }>, "ok" | "intent">) =>
    data<BrandActionResult>({ ok: false, intent, values, ...result }, status);

  let current: { id: number; logo: string | null; coverImage: string | null } | undefined;
  if (intent === "update") {
    const id = IdSchema.safeParse(values);
    if (!id.success) return fail(400, { message: "Failed to save brand. Please try again." });
    [current] = await db
      .select({ id: brands.id, logo: brands.logo, coverImage: brands.coverImage })
      .from(brands)
      .where(eq(brands.id, id.data.id));
    if (!current) return fail(404, { message: "Failed to update brand: it no longer exists." });
  }
  const parsed = BrandSchema.safeParse(values);
  if (!parsed.success) return fail(400, { errors: fieldErrors(parsed.error) });

  const [logo, cover] = await Promise.all([upload(form, "logo"), upload(form, "cover")]);
  if (logo.error || cover.error) {
    await Promise.all([deleteImageIfUnused(logo.key), deleteImageIfUnused(cover.key)]);
    return fail(400, {
      errors: { ...(logo.error ? { logo: [logo.error] } : {}), ...(cover.error ? { cover: [cover.error] } : {}) },
    });
  }
  const logoKey = logo.key ?? (form.get("logoRemove") === "1" ? null : (current?.logo ?? null));
  const coverKey = cover.key ?? (form.get("coverRemove") === "1" ? null : (current?.coverImage ?? null));
  const fields = { ...parsed.data, logo: logoKey, coverImage: coverKey };
  let id: number;
  try {
    if (current) {
      await db.update(brands).set(fields).where(eq(brands.id, current.id));
      id = current.id;
    } else {
      const [created] = await db.insert(brands).values(fields).returning({ id: brands.id });
      id = created!.id;
    }
  } catch (error) {
    await Promise.all([
      logoKey !== current?.logo ? deleteImageIfUnused(logoKey) : null,
      coverKey !== current?.coverImage ? deleteImageIfUnused(coverKey) : null,
    ]);
    console.error("[brands] save failed:", error);
    const reason = error instanceof Error ? error.message : "unknown error";
    return fail(500, { message: `Failed to ${intent} brand: ${reason}` });
  }
  if (current && logoKey !== current.logo) await deleteImageIfUnused(current.logo);
  if (current && coverKey !== current.coverImage) await deleteImageIfUnused(current.coverImage);
  await publish({ kind: "brand", id: String(id) });
  return data<BrandActionResult>({
    ok: true,
    intent,
    message: intent === "create" ? "Brand created successfully!" : "Brand updated successfully!",
  });
}

/** Deletes a brand; profiles that used it are left without one (the foreign key sets null). */
export async function deleteBrand(viewer: Viewer, form: FormData) {
  requirePermission(viewer, "manage:brand:any");
  const intent = "delete";
  const id = IdSchema.safeParse(formText(form));
  if (!id.success)
    return data<BrandActionResult>({ ok: false, intent, message: "Failed to delete brand. Please try again." }, 400);
  const [deleted] = await db
    .delete(brands)
    .where(eq(brands.id, id.data.id))
    .returning({ id: brands.id, logo: brands.logo, coverImage: brands.coverImage });
  if (!deleted)
    return data<BrandActionResult>({ ok: false, intent, message: "Failed to delete brand: it no longer exists." }, 404);
  await Promise.all([deleteImageIfUnused(deleted.logo), deleteImageIfUnused(deleted.coverImage)]);
  await publish({ kind: "brand", id: String(deleted.id) });
  return data<BrandActionResult>({ ok: true, intent, message: "Brand deleted successfully!" });
}

/** Active brands for a picker, plus the card's current brand if it was deactivated since. */
export async function activeBrandOptions(currentBrandId: number | null = null) {
  return db
    .select({ id: brands.id, name: brands.name })
    .from(brands)
    .where(currentBrandId ? or(eq(brands.active, true), eq(brands.id, currentBrandId)) : eq(brands.active, true))
    .orderBy(brands.name);
}
