import { Globe, LayoutTemplate, Palette, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { useFetcher } from "react-router";
import { reachOf } from "~/.server/access/scope";
import {
  administratorsByBrand,
  appointForBrand,
  BrandAppointmentSchema,
} from "~/.server/accounts/brand-administration";
import { deleteBrand } from "~/.server/brands/delete-brand";
import { domainsByBrand } from "~/.server/brands/domains";
import { listBrandsWithUsage } from "~/.server/brands/list-brands";
import { saveBrand } from "~/.server/brands/save-brand";
import { BrandIdSchema, BrandSchema } from "~/.server/brands/schemas";
import { templateFrom } from "~/.server/brands/template";
import { requireAction, requirePermission } from "~/.server/http/authz";
import { type BodyHandle, formText, imageChange, readUploadForm } from "~/.server/http/form-data";
import { failure, failureFrom } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { EditVersionSchema } from "~/.server/platform/edit-version";
import { parseForm } from "~/.server/platform/validation";
import { saveBrandTemplate, templateFromForm } from "~/.server/profiles/brand-template";
import { getFieldPolicies } from "~/.server/profiles/visibility";
import { BrandTemplateDialog } from "~/components/admin/brand-template-dialog";
import { brandGradientStyle } from "~/components/brand-badge";
import { ColorField } from "~/components/color-field";
import { EmptyState } from "~/components/empty-state";
import { FallbackImage } from "~/components/fallback-image";
import { Field, TextareaField } from "~/components/forms";
import { ImagePicker } from "~/components/image-picker";
import { LanguageField } from "~/components/language-field";
import { PageHeader } from "~/components/page-header";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Confirm, DIALOG_FORM_ACTIONS, Modal } from "~/components/ui/dialog";
import { useDialogFetcher } from "~/components/use-dialog-fetcher";
import { HEX_COLOR, readableTextOn } from "~/lib/color";
import { mediaUrl } from "~/lib/media";
import { can } from "~/lib/permissions";
import { DEFAULT_BRAND_PRIMARY, DEFAULT_BRAND_SECONDARY } from "~/lib/settings";
import { BRAND_TOAST_MS } from "~/lib/toast";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/brands";

/** It takes a form with a logo: the server allows such a body (server/routes.ts). */
export const handle: BodyHandle = { bodyLimit: "upload" };

export const meta: Route.MetaFunction = () => [{ title: "Brand Management" }];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireAction(context.get(viewerContext), "manage:brand");
  const brands = await listBrandsWithUsage(reachOf(viewer));
  const ids = brands.map((brand) => brand.id);
  const [administrators, domains, site] = await Promise.all([
    administratorsByBrand(ids),
    domainsByBrand(ids),
    getFieldPolicies(),
  ]);
  return {
    // The site's field policies, which every brand's template builds on.
    site,
    // Administrators add, remove and switch brands on and off; a brand administrator edits their own.
    siteWide: can(viewer.role, "manage:brand:any"),
    brands: brands.map(({ updatedAt, template, ...brand }) => ({
      ...brand,
      template: templateFrom(template),
      administrators: administrators.get(brand.id) ?? [],
      emailDomains: domains.get(brand.id) ?? [],
      logoUrl: mediaUrl(brand.logo),
      coverUrl: mediaUrl(brand.coverImage),
      // Sent back by the edit form: a save over someone else's later change is refused.
      version: updatedAt.toISOString(),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireAction(context.get(viewerContext), "manage:brand");
  const { form } = await readUploadForm(request);
  if (!form) return failure(413, { formError: "The images are larger than 5MB. Choose smaller ones." });
  const values = formText(form);
  const intent = values.intent;
  if (intent === "create" || intent === "update") {
    try {
      const brandId = intent === "update" ? parseForm(BrandIdSchema, values).id : undefined;
      const fields = parseForm(BrandSchema, values);
      const [logo, cover] = await Promise.all([imageChange(form, "logo"), imageChange(form, "cover")]);
      const { version } = parseForm(EditVersionSchema, values);
      await saveBrand({ actor: viewer, brandId, version, fields, logo, cover });
      return redirectWithToast("/admin/brands", {
        text: intent === "create" ? "Brand created successfully!" : "Brand updated successfully!",
        durationMs: BRAND_TOAST_MS,
      });
    } catch (error) {
      return failureFrom(error, {
        values,
        notFound: "Failed to update brand: it no longer exists.",
        unexpected: "Failed to save brand. Please try again.",
      });
    }
  }
  if (intent === "template") {
    try {
      const { id } = parseForm(BrandIdSchema, values);
      const { version } = parseForm(EditVersionSchema, values);
      const saved = await saveBrandTemplate({
        actor: viewer,
        brandId: id,
        template: templateFromForm(values),
        version,
      });
      return redirectWithToast("/admin/brands", {
        text: saved.changed
          ? `Template of ${saved.name} saved: ${saved.cards} ${saved.cards === 1 ? "card" : "cards"} updated.`
          : `The template of ${saved.name} was already so.`,
      });
    } catch (error) {
      return failureFrom(error, {
        values,
        notFound: "Failed to save the template: the brand no longer exists.",
        unexpected: "Failed to save the template. Please try again.",
      });
    }
  }
  if (intent === "appoint" || intent === "dismiss") {
    requirePermission(viewer, "update:role:any");
    try {
      const { id, person } = parseForm(BrandAppointmentSchema, values);
      const done = await appointForBrand({ actor: viewer, brandId: id, person, grant: intent === "appoint" });
      return redirectWithToast("/admin/brands", {
        text: done.brands.length
          ? `${done.name} now runs ${done.brands.join(", ")}.`
          : `${done.name} no longer runs a brand.`,
      });
    } catch (error) {
      return failureFrom(error, {
        values,
        notFound: "Failed to change who runs the brand: the card no longer exists.",
        unexpected: "Failed to change who runs the brand. Please try again.",
      });
    }
  }
  if (intent === "delete") {
    requirePermission(viewer, "manage:brand:any");
    try {
      await deleteBrand({ actor: viewer, brandId: parseForm(BrandIdSchema, values).id });
      return redirectWithToast("/admin/brands", { text: "Brand deleted successfully!", durationMs: BRAND_TOAST_MS });
    } catch (error) {
      return failureFrom(error, {
        notFound: "Failed to delete brand: it no longer exists.",
        unexpected: "Failed to delete brand. Please try again.",
      });
    }
  }
  return failure(400, { formError: "Unknown action." });
}

type Brand = Route.ComponentProps["loaderData"]["brands"][number];

export default function Brands({ loaderData }: Route.ComponentProps) {
  const { brands, siteWide, site } = loaderData;
  const [editing, setEditing] = useState<Brand | "new" | null>(null);
  const [templating, setTemplating] = useState<Brand | null>(null);
  const [deleting, setDeleting] = useState<Brand | null>(null);
  const deleter = useDialogFetcher(() => setDeleting(null));

  return (
    <div>
      <PageHeader
        title="Brand Management"
        description={
          siteWide ? "Manage company brands and their visual identity." : "The look and rules of the brands you run."
        }
        actions={
          siteWide ? (
            <Button onClick={() => setEditing("new")}>
              <Plus aria-hidden className="size-4" />
              Add Brand
            </Button>
          ) : null
        }
      />

      {brands.length === 0 ? (
        <EmptyState Icon={Palette} title="No brands found" text="Get started by creating your first brand." />
      ) : (
        <ul className="grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
          {brands.map((brand) => (
            <li key={brand.id}>
              <article className="flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
                <div className="brand-gradient relative h-28" style={brandGradientStyle(brand)}>
                  {brand.coverUrl ? (
                    <FallbackImage src={brand.coverUrl} alt="" className="absolute inset-0 size-full object-cover" />
                  ) : null}
                  <span
                    className={`absolute top-3 right-3 rounded-full px-2.5 py-0.5 text-xs font-semibold ${brand.active ? "bg-emerald-100 text-emerald-800" : "bg-slate-200 text-slate-700"}`}
                  >
                    {brand.active ? "Active" : "Inactive"}
                  </span>
                </div>
                <div className="flex flex-1 flex-col p-5">
                  <div className="relative z-10 -mt-12 mb-3 flex size-16 items-center justify-center overflow-hidden rounded-xl border-4 border-white bg-white shadow dark:border-slate-900 dark:bg-slate-800">
                    {brand.logoUrl ? (
                      <FallbackImage
                        src={brand.logoUrl}
                        alt={`${brand.name} logo`}
                        className="size-full object-contain"
                        fallback={<BrandInitial brand={brand} />}
                      />
                    ) : (
                      <BrandInitial brand={brand} />
                    )}
                  </div>
                  <h2 className="text-lg font-semibold">{brand.name}</h2>
                  <p className="text-sm text-slate-500 dark:text-slate-400">
                    {brand.profileCount} {brand.profileCount === 1 ? "profile" : "profiles"}
                  </p>
                  <div className="mt-3 flex items-center gap-3 text-xs text-slate-600 dark:text-slate-400">
                    {(
                      [
                        ["primary", brand.primaryColor],
                        ["secondary", brand.secondaryColor],
                      ] as const
                    ).map(([role, color]) => (
                      <span key={role} className="inline-flex items-center gap-1.5 font-mono">
                        <span
                          aria-hidden
                          className="size-5 rounded-md border border-slate-200 dark:border-slate-700"
                          style={{ backgroundColor: color }}
                        />
                        {color}
                      </span>
                    ))}
                  </div>
                  {brand.emailDomains.length || brand.isDefault ? (
                    <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
                      {brand.emailDomains.length ? `People at ${brand.emailDomains.join(", ")}` : null}
                      {brand.emailDomains.length && brand.isDefault ? ", and " : null}
                      {brand.isDefault
                        ? `${brand.emailDomains.length ? "everyone" : "Everyone"} at no brand's domain`
                        : null}
                    </p>
                  ) : null}
                  <BrandAdministrators brand={brand} siteWide={siteWide} />
                  {brand.website ? (
                    <a
                      href={brand.website}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="mt-3 inline-flex items-center gap-1.5 truncate text-sm text-brand-ink hover:underline"
                    >
                      <Globe aria-hidden className="size-4" />
                      {brand.website.replace(/^https?:\/\//, "").replace(/\/$/, "")}
                    </a>
                  ) : null}
                  <div className="mt-auto flex flex-wrap gap-2 pt-5">
                    <Button
                      variant="secondary"
                      size="sm"
                      className="flex-1"
                      onClick={() => setEditing(brand)}
                      aria-label={`Edit ${brand.name}`}
                    >
                      <Pencil aria-hidden className="size-4" /> Edit
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      className="flex-1"
                      onClick={() => setTemplating(brand)}
                      aria-label={`Card template of ${brand.name}`}
                    >
                      <LayoutTemplate aria-hidden className="size-4" /> Template
                    </Button>
                    {siteWide ? (
                      <Button
                        variant="destructive-outline"
                        size="sm"
                        className="flex-1"
                        onClick={() => setDeleting(brand)}
                        aria-label={`Delete ${brand.name}`}
                      >
                        <Trash2 aria-hidden className="size-4" /> Delete
                      </Button>
                    ) : null}
                  </div>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}

      {editing ? (
        <BrandDialog
          key={editing === "new" ? "new" : editing.id}
          brand={editing === "new" ? null : editing}
          siteWide={siteWide}
          onClose={() => setEditing(null)}
        />
      ) : null}

      {templating ? (
        <BrandTemplateDialog key={templating.id} brand={templating} site={site} onClose={() => setTemplating(null)} />
      ) : null}

      <Confirm
        open={deleting !== null}
        onOpenChange={(open) => {
          if (open) return;
          setDeleting(null);
          deleter.fetcher.reset();
        }}
        title="Delete brand"
        confirmLabel={deleter.busy ? "Deleting..." : "Delete Brand"}
        busy={deleter.busy}
        onConfirm={() =>
          deleting && void deleter.submit({ intent: "delete", id: String(deleting.id) }, { method: "post" })
        }
      >
        {deleter.failure?.formError ? <Alert tone="error">{deleter.failure.formError}</Alert> : null}
        <p className="font-medium text-slate-900 dark:text-white">
          Are you sure you want to delete this brand? This action cannot be undone.
        </p>
        {deleting && deleting.profileCount > 0 ? (
          <p>
            {deleting.profileCount} {deleting.profileCount === 1 ? "profile uses" : "profiles use"} {deleting.name} and
            will be left without a brand.
          </p>
        ) : null}
      </Confirm>
    </div>
  );
}

function BrandDialog({ brand, siteWide, onClose }: { brand: Brand | null; siteWide: boolean; onClose: () => void }) {
  const { fetcher, busy: saving, failure: failed, onSubmit } = useDialogFetcher(onClose);
  const values = failed?.values;
  const errors = failed?.fieldErrors;
  const [primary, setPrimary] = useState(values?.primaryColor ?? brand?.primaryColor ?? DEFAULT_BRAND_PRIMARY);
  const [secondary, setSecondary] = useState(
    values?.secondaryColor ?? brand?.secondaryColor ?? DEFAULT_BRAND_SECONDARY,
  );
  return (
    <Modal
      open
      onOpenChange={(open) => !open && !saving && onClose()}
      title={brand ? "Edit Brand" : "Add New Brand"}
      wide
    >
      <fetcher.Form method="post" encType="multipart/form-data" noValidate className="space-y-5" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value={brand ? "update" : "create"} />
        {brand ? <input type="hidden" name="id" value={brand.id} /> : null}
        {brand ? <input type="hidden" name="version" value={brand.version} /> : null}
        {failed?.formError ? <Alert tone="error">{failed.formError}</Alert> : null}
        <fieldset disabled={saving} className="space-y-5">
          <Field
            label="Brand name"
            name="name"
            required
            defaultValue={values?.name ?? brand?.name ?? ""}
            errors={errors?.name}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            {(
              [
                ["primaryColor", "Primary colour", primary, setPrimary],
                ["secondaryColor", "Secondary colour", secondary, setSecondary],
              ] as const
            ).map(([name, label, value, setValue]) => (
              <ColorField
                key={name}
                name={name}
                label={label}
                stored={value}
                fallback={value}
                errors={errors?.[name]}
                onChange={(next) => HEX_COLOR.test(next) && setValue(next)}
              />
            ))}
          </div>
          <div
            className="brand-gradient h-10 rounded-lg"
            style={{ "--from": primary, "--to": secondary } as React.CSSProperties}
            aria-hidden
          />
          <Field
            label="Website"
            name="website"
            type="url"
            placeholder="https://example.com"
            defaultValue={values?.website ?? brand?.website ?? ""}
            errors={errors?.website}
          />
          <LanguageField
            label="Language of its cards"
            name="defaultLocale"
            hint="For a visitor whose browser asks for none of the languages Namecard speaks."
            emptyLabel="The company's language"
            defaultValue={values?.defaultLocale ?? brand?.defaultLocale ?? ""}
            errors={errors?.defaultLocale}
          />
          <div className="space-y-4">
            <ImagePicker
              name="logo"
              label="Logo"
              currentUrl={brand?.logoUrl ?? null}
              errors={errors?.logo}
              shape="logo"
              hint="JPG, PNG or WebP up to 5MB. A transparent background works best."
            />
            <ImagePicker
              name="cover"
              label="Cover image"
              currentUrl={brand?.coverUrl ?? null}
              errors={errors?.cover}
              shape="wide"
              hint="JPG, PNG or WebP up to 5MB. Wide images work best (about 1600 × 600)."
            />
          </div>
          <Switch
            name="membersChangeBrand"
            checked={values ? values.membersChangeBrand === "on" : (brand?.membersChangeBrand ?? false)}
            label="Members may move their own card to another brand"
            hint="Off: a card stays in the brand it was given, and only administrators move it."
          />
          <Switch
            name="qrLogo"
            checked={values ? values.qrLogo === "on" : (brand?.qrLogo ?? false)}
            label="Logo in the middle of the brand's QR codes"
            hint="Drawn with the strongest error correction, so phones still read every code."
          />
          {siteWide ? (
            <>
              <TextareaField
                label="E-mail domains"
                name="emailDomains"
                rows={3}
                placeholder={"aurora.example\naurora-foods.example"}
                hint="People at these domains join this brand however they join: signing up, single sign-on, provisioning or an import. One a line."
                defaultValue={values?.emailDomains ?? brand?.emailDomains.join("\n") ?? ""}
                errors={errors?.emailDomains}
              />
              <Switch
                name="isDefault"
                checked={values ? values.isDefault === "on" : (brand?.isDefault ?? false)}
                label="Default brand"
                hint="People whose address is at no brand's domain join this brand."
              />
              <Switch
                name="active"
                checked={values ? values.active === "on" : (brand?.active ?? true)}
                label="Active (shown in pickers and counted in analytics)"
              />
            </>
          ) : null}
        </fieldset>
        <div className={DIALOG_FORM_ACTIONS}>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? (brand ? "Updating..." : "Creating...") : brand ? "Update Brand" : "Create Brand"}
          </Button>
        </div>
      </fetcher.Form>
    </Modal>
  );
}

/**
 * Who runs the brand; an administrator of the whole site adds someone by username or address,
 * and takes the brand from them, here as on the person's row.
 */
function BrandAdministrators({ brand, siteWide }: { brand: Brand; siteWide: boolean }) {
  const fetcher = useFetcher<typeof action>();
  const failed = fetcher.data && "fieldErrors" in fetcher.data ? fetcher.data : undefined;
  const busy = fetcher.state !== "idle";
  if (!brand.administrators.length && !siteWide) return null;
  return (
    <div className="mt-3 text-sm">
      <h3 className="font-medium text-slate-700 dark:text-slate-300">Run by</h3>
      {brand.administrators.length ? (
        <ul className="mt-1 space-y-1 text-slate-600 dark:text-slate-400">
          {brand.administrators.map((person) => (
            <li key={person.profileId} className="flex items-center justify-between gap-2">
              <span className="min-w-0 truncate">{person.name}</span>
              {siteWide ? (
                <fetcher.Form method="post">
                  <input type="hidden" name="intent" value="dismiss" />
                  <input type="hidden" name="id" value={brand.id} />
                  <input type="hidden" name="person" value={person.email} />
                  <Button
                    type="submit"
                    variant="ghost"
                    size="sm"
                    disabled={busy}
                    aria-label={`${person.name} no longer runs ${brand.name}`}
                  >
                    Remove
                  </Button>
                </fetcher.Form>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-slate-500 dark:text-slate-400">No brand administrator yet.</p>
      )}
      {siteWide ? (
        <fetcher.Form method="post" className="mt-2 flex gap-2">
          <input type="hidden" name="intent" value="appoint" />
          <input type="hidden" name="id" value={brand.id} />
          <label htmlFor={`appoint-${brand.id}`} className="sr-only">
            Username or address of a new administrator of {brand.name}
          </label>
          <input
            id={`appoint-${brand.id}`}
            name="person"
            placeholder="Username or address"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={failed?.fieldErrors?.person ? true : undefined}
            aria-describedby={failed?.fieldErrors?.person ? `appoint-${brand.id}-error` : undefined}
            className="h-8 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-2.5 text-sm dark:border-slate-700 dark:bg-slate-950"
          />
          <Button type="submit" variant="secondary" size="sm" disabled={busy}>
            Add
          </Button>
        </fetcher.Form>
      ) : null}
      {failed?.fieldErrors?.person ? (
        <p id={`appoint-${brand.id}-error`} role="alert" className="mt-1 text-red-700 dark:text-red-400">
          {failed.fieldErrors.person[0]}
        </p>
      ) : null}
    </div>
  );
}

/** One of the brand's yes-or-no choices: a checkbox, its label, and what it means when it helps. */
function Switch({ name, checked, label, hint }: { name: string; checked: boolean; label: string; hint?: string }) {
  return (
    <label className="flex items-start gap-3 text-sm font-medium">
      <input
        type="checkbox"
        name={name}
        defaultChecked={checked}
        className="mt-0.5 size-4 rounded border-slate-300 accent-[var(--color-brand-solid)]"
      />
      <span>
        {label}
        {hint ? <span className="block font-normal text-slate-500 dark:text-slate-400">{hint}</span> : null}
      </span>
    </label>
  );
}

/** A brand without a logo (or whose logo file is gone): its first letter on its colour, readable in either theme. */
function BrandInitial({ brand }: { brand: { name: string; primaryColor: string } }) {
  return (
    <span
      className="flex size-full items-center justify-center text-xl font-bold"
      style={{ backgroundColor: brand.primaryColor, color: readableTextOn(brand.primaryColor) }}
      aria-hidden
    >
      {brand.name.slice(0, 1).toUpperCase()}
    </span>
  );
}
