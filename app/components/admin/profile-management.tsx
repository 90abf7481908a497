import {
  Ellipsis,
  Eye,
  FileUp,
  KeyRound,
  Pencil,
  Plus,
  Power,
  PowerOff,
  Send,
  ShieldCheck,
  ShieldMinus,
  ShieldPlus,
  Store,
  Trash2,
  Users,
} from "lucide-react";
import { DropdownMenu, Tooltip } from "radix-ui";
import { useState } from "react";
import { Form, Link, useLocation, useNavigation, useSubmit } from "react-router";
import {
  CardStatus,
  FailedMails,
  INVITATION_OPTIONS,
  InvitationToolbar,
  InviteButton,
  QueuedMails,
  SelectBox,
} from "~/components/admin/invitations";
import { Avatar } from "~/components/avatar";
import { BrandBadge } from "~/components/brand-badge";
import { EmptyState } from "~/components/empty-state";
import { FormAlert } from "~/components/form-alert";
import { ImagePicker } from "~/components/image-picker";
import { Pagination } from "~/components/pagination";
import { ProfileFormFields, profileFormValues } from "~/components/profile-form-fields";
import {
  BRAND_OPTIONS,
  FilterRow,
  FilterSelect,
  SearchBox,
  STATUS_OPTIONS,
  useLiveSearch,
} from "~/components/search-form";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClasses } from "~/components/ui/button";
import { Confirm, DIALOG_FORM_ACTIONS, Modal } from "~/components/ui/dialog";
import { useDialogFetcher } from "~/components/use-dialog-fetcher";
import type { ActionFailure } from "~/lib/action-result";
import { cn } from "~/lib/cn";
import type { DashboardData, ManagedProfile, ProfileManagementData } from "~/lib/dashboard";
import { fullName, greetingName } from "~/lib/names";

type Row = ManagedProfile;

/** "Manage Profiles": search, filters, the table, edit and delete. */
export function ProfileManagement({
  management,
  brands,
}: {
  management: ProfileManagementData;
  brands: DashboardData["brands"];
}) {
  const { rows, shown, total, page, pageCount, query } = management;
  const search = useLiveSearch("/admin/profiles", {
    q: query.q,
    brand: query.brand ? String(query.brand) : "",
    status: query.status,
    invitation: query.invitation,
    state: query.state,
  });
  const [editing, setEditing] = useState<Row | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const deleter = useDialogFetcher(() => setDeleting(null));
  const [deactivating, setDeactivating] = useState<Row | null>(null);
  const deactivator = useDialogFetcher(() => setDeactivating(null));
  const [appointing, setAppointing] = useState<Row | null>(null);
  // After a save or a delete the list comes back as it was: same search, same page.
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;

  const filtered =
    query.q !== "" ||
    query.brand !== null ||
    query.status !== "all" ||
    query.invitation !== "all" ||
    query.state !== "all";
  const actions = {
    onEdit: setEditing,
    onDelete: setDeleting,
    onDeactivate: setDeactivating,
    onAppoint: setAppointing,
    siteWide: management.siteWide,
    returnTo: here,
  };

  return (
    <Tooltip.Provider>
      <section aria-labelledby="management-title">
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <h2 id="management-title" className="text-lg font-semibold">
            Profile Management ({shown.toLocaleString("en")} of {total.toLocaleString("en")})
          </h2>
          <div className="flex flex-wrap gap-2">
            <Link to="/admin/import" className={buttonClasses("secondary")}>
              <FileUp aria-hidden className="size-4" />
              Import CSV
            </Link>
            <Link to="/admin/profiles/create" className={buttonClasses("primary")}>
              <Plus aria-hidden className="size-4" />
              Add Profile
            </Link>
          </div>
        </div>

        <InvitationToolbar
          summary={management.invitations}
          returnTo={here}
          brands={brands.filter((brand) => brand.active)}
          noBrand={management.siteWide}
        />
        <QueuedMails summary={management.invitations} returnTo={here} />
        <FailedMails summary={management.invitations} returnTo={here} />

        <Form
          method="get"
          action="/admin/profiles"
          role="search"
          aria-label="Search profiles"
          className="mb-4 grid gap-3 sm:grid-cols-2 min-[90rem]:grid-cols-[minmax(12rem,1fr)_auto_auto_auto_auto_auto]"
          ref={search.ref}
          onChange={search.onChange}
          onSubmit={search.onSubmit}
        >
          <SearchBox
            id="admin-q"
            label="Search profiles"
            placeholder="Search by name, email or username..."
            defaultValue={query.q}
          />
          <FilterRow>
            <FilterSelect
              id="admin-brand"
              label="Brand"
              name="brand"
              defaultValue={query.brand ? String(query.brand) : ""}
              options={BRAND_OPTIONS(brands)}
            />
            <FilterSelect
              id="admin-status"
              label="Status"
              name="status"
              defaultValue={query.status}
              options={STATUS_OPTIONS}
            />
            <FilterSelect
              id="admin-invitation"
              label="Invitation"
              name="invitation"
              defaultValue={query.invitation}
              options={INVITATION_OPTIONS}
            />
            <FilterSelect
              id="admin-state"
              label="Card"
              name="state"
              defaultValue={query.state}
              options={CARD_STATE_OPTIONS}
            />
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </FilterRow>
        </Form>

        {rows.length === 0 ? (
          <EmptyState
            Icon={Users}
            title="No profiles found"
            text={
              filtered ? "Try adjusting your search or filter criteria." : "Get started by creating your first profile."
            }
          />
        ) : (
          <>
            {/* Phones get one card per profile; wider screens the table. */}
            <ul className="space-y-3 md:hidden">
              {rows.map((row) => (
                <li
                  key={row.id}
                  className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
                >
                  <div className="flex items-center gap-3">
                    <SelectBox key={`${row.id} ${row.invitedAt}`} row={row} />
                    <Avatar person={row} photoUrl={row.photoUrl} size="sm" />
                    <div className="min-w-0 flex-1 space-y-1">
                      <p className="flex flex-wrap items-center gap-1.5 font-medium">
                        <span className="wrap-anywhere">{fullName(row)}</span>
                        {row.admin ? <AdminBadge /> : <BrandAdministratorBadge row={row} brands={brands} />}
                      </p>
                      <Truncated text={row.email} className="text-sm text-slate-500 dark:text-slate-400" />
                      <CardStatus row={row} />
                    </div>
                  </div>
                  <div className="mt-3 flex items-center justify-between gap-2 text-sm">
                    {row.brandName ? (
                      <BrandBadge brand={{ name: row.brandName, primaryColor: row.brandColor ?? "" }} />
                    ) : (
                      <span className="text-slate-500 dark:text-slate-400">No brand</span>
                    )}
                    <span className="text-slate-500 tabular-nums dark:text-slate-400">
                      {row.viewCount.toLocaleString("en")} {row.viewCount === 1 ? "view" : "views"}
                    </span>
                  </div>
                  <RowActions row={row} {...actions} />
                </li>
              ))}
            </ul>
            <div className="hidden overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm md:block dark:border-slate-800 dark:bg-slate-900">
              <table className="w-full min-w-[760px] text-left text-sm">
                <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:bg-slate-950/40 dark:text-slate-400">
                  <tr>
                    <th scope="col" className="w-10 py-3 pl-4">
                      <span className="sr-only">Select to invite</span>
                    </th>
                    {["Profile", "Contact", "Brand", "Status", "Views", "Actions"].map((heading) => (
                      <th
                        key={heading}
                        scope="col"
                        className={heading === "Actions" || heading === "Views" ? "px-4 py-3 text-right" : "px-4 py-3"}
                      >
                        {heading}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {rows.map((row) => (
                    <tr key={row.id} className={row.deactivated ? "bg-slate-50/70 dark:bg-slate-950/40" : undefined}>
                      <td className="py-3 pl-4">
                        <SelectBox key={`${row.id} ${row.invitedAt}`} row={row} />
                      </td>
                      <td className="px-4 py-3">
                        <div className="flex items-center gap-3">
                          <Avatar person={row} photoUrl={row.photoUrl} size="sm" />
                          <div className="min-w-0 max-w-56">
                            <p className="flex flex-wrap items-center gap-1.5 font-medium">
                              <span className="wrap-anywhere">{fullName(row)}</span>
                              {row.admin ? <AdminBadge /> : <BrandAdministratorBadge row={row} brands={brands} />}
                            </p>
                            <Truncated text={`@${row.username}`} className="text-slate-500 dark:text-slate-400" />
                          </div>
                        </div>
                      </td>
                      <td className="max-w-64 px-4 py-3">
                        <Truncated text={row.email} testId="profile-email" />
                        {row.phone ? <p className="text-slate-500 dark:text-slate-400">{row.phone}</p> : null}
                      </td>
                      <td className="px-4 py-3">
                        {row.brandName ? (
                          <BrandBadge brand={{ name: row.brandName, primaryColor: row.brandColor ?? "" }} />
                        ) : (
                          <span className="text-slate-500 dark:text-slate-400">No brand</span>
                        )}
                      </td>
                      <td className="px-4 py-3">
                        <CardStatus row={row} />
                      </td>
                      <td className="px-4 py-3 text-right tabular-nums">{row.viewCount.toLocaleString("en")}</td>
                      <td className="px-4 py-3">
                        <RowActions row={row} {...actions} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}

        <Pagination page={page} pageCount={pageCount} path="/admin/profiles" className="mt-4" />

        {editing ? (
          <EditProfileDialog
            key={editing.id}
            row={editing}
            brands={brands}
            brandRequired={!management.siteWide}
            returnTo={here}
            onClose={() => setEditing(null)}
          />
        ) : null}
        {appointing ? (
          <BrandAdministrationDialog
            key={appointing.id}
            row={appointing}
            brands={brands}
            returnTo={here}
            onClose={() => setAppointing(null)}
          />
        ) : null}

        <Confirm
          open={deleting !== null}
          onOpenChange={(open) => {
            if (open) return;
            setDeleting(null);
            deleter.fetcher.reset();
          }}
          title="Delete profile"
          confirmLabel={deleter.busy ? "Deleting..." : "Delete Profile"}
          busy={deleter.busy}
          onConfirm={() => {
            if (!deleting) return;
            void deleter.submit(
              { intent: "delete", id: deleting.id, redirectTo: here },
              { method: "post", action: "/admin/profiles" },
            );
          }}
        >
          <ConfirmFailure failure={deleter.failure} />
          {deleting ? (
            <>
              <p className="font-medium text-slate-900 dark:text-white">
                Are you sure you want to delete {fullName(deleting)}'s profile?
              </p>
              <p>
                This will permanently remove all profile information, the photo, and the view count and statistics. This
                action cannot be undone.
              </p>
              {deleting.claimed ? (
                <p>
                  {greetingName(deleting)}'s account goes with it: they are signed out everywhere and cannot sign in
                  again. To let someone go but keep their card's history, deactivate it instead.
                </p>
              ) : null}
            </>
          ) : null}
        </Confirm>
        <Confirm
          open={deactivating !== null}
          onOpenChange={(open) => {
            if (open) return;
            setDeactivating(null);
            deactivator.fetcher.reset();
          }}
          title="Deactivate card"
          confirmLabel={deactivator.busy ? "Deactivating..." : "Deactivate Card"}
          busy={deactivator.busy}
          onConfirm={() => {
            if (!deactivating) return;
            void deactivator.submit(
              { intent: "deactivate", id: deactivating.id, redirectTo: here },
              { method: "post", action: "/admin/profiles" },
            );
          }}
        >
          <ConfirmFailure failure={deactivator.failure} />
          {deactivating ? (
            <>
              <p className="font-medium text-slate-900 dark:text-white">Deactivate {fullName(deactivating)}'s card?</p>
              <p>
                They are signed out everywhere at once and cannot sign in. Their card leaves the directory, and its
                address, QR code and contact file stop working. Views and history are kept: reactivating restores
                everything.
              </p>
            </>
          ) : null}
        </Confirm>
      </section>
    </Tooltip.Provider>
  );
}

const CARD_STATE_OPTIONS = [
  { value: "all", label: "All Cards" },
  { value: "active", label: "Active" },
  { value: "deactivated", label: "Deactivated" },
];

function AdminBadge() {
  return (
    <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-semibold text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
      <ShieldCheck aria-hidden className="size-3" />
      Administrator
    </span>
  );
}

/** Whom a brand administrator runs, named: "Runs Aurora Foods". */
function BrandAdministratorBadge({ row, brands }: { row: Row; brands: DashboardData["brands"] }) {
  if (!row.administers.length) return null;
  const names = brands.filter((brand) => row.administers.includes(brand.id)).map((brand) => brand.name);
  return (
    <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-teal-50 px-2.5 py-0.5 text-xs font-semibold text-teal-800 dark:bg-teal-950 dark:text-teal-200">
      <Store aria-hidden className="size-3" />
      {names.length ? `Runs ${names.join(", ")}` : "Brand administrator"}
    </span>
  );
}

/** A value kept to one line: the whole of it on hover and on focus (a tooltip), and to screen readers. */
function Truncated({ text, className, testId }: { text: string; className?: string; testId?: string }) {
  return (
    <Tooltip.Root delayDuration={300}>
      <Tooltip.Trigger asChild>
        {/* Focusable so that keyboard users can read the whole value too. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the tooltip with the whole value opens on focus */}
        <p tabIndex={0} className={cn("truncate rounded-sm outline-offset-2", className)} data-testid={testId}>
          {text}
        </p>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content
          side="top"
          className="z-50 max-w-sm rounded-md bg-slate-900 px-2.5 py-1.5 text-xs break-all text-white shadow-lg dark:bg-slate-100 dark:text-slate-900"
        >
          {text}
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}

const MENU_ITEM =
  "flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-slate-700 outline-none data-[highlighted]:bg-slate-100 dark:text-slate-200 dark:data-[highlighted]:bg-slate-800";

type RowActionProps = {
  row: Row;
  onEdit: (row: Row) => void;
  onDelete: (row: Row) => void;
  onDeactivate: (row: Row) => void;
  onAppoint: (row: Row) => void;
  /** The viewer administers the whole site: roles, second steps and brand administration are theirs. */
  siteWide: boolean;
  returnTo: string;
};

/**
 * A card's actions, each named: Edit, and the rest in a menu. Without
 * JavaScript (no menu, no dialogs) the actions that are plain forms are
 * buttons in the row instead: invite, switch off and on, and the card's page.
 */
function RowActions(props: RowActionProps) {
  return (
    <div className="mt-3 flex flex-wrap justify-end gap-1 md:mt-0 md:flex-nowrap">
      <PlainActions {...props} />
      <Button
        variant="secondary"
        size="sm"
        onClick={() => props.onEdit(props.row)}
        aria-label={`Edit ${fullName(props.row)}`}
        className="no-js:hidden"
      >
        <Pencil aria-hidden className="size-4" />
        Edit
      </Button>
      <ActionsMenu {...props} />
    </div>
  );
}

function ActionsMenu({ row, onDelete, onDeactivate, onAppoint, siteWide, returnTo }: RowActionProps) {
  const submit = useSubmit();
  const send = (fields: Record<string, string>) =>
    submit({ ...fields, id: row.id, redirectTo: returnTo }, { method: "post", action: "/admin/profiles" });
  const name = fullName(row);
  const invitable = !row.claimed && !row.invitationsStopped && !row.deactivated;
  const roleChangeable = siteWide && row.claimed && !row.deactivated && !row.adminByConfiguration;
  const appointable = siteWide && row.claimed && !row.deactivated && !row.admin;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={buttonClasses("ghost", "sm", "no-js:hidden")} aria-label={`Actions for ${name}`}>
        <Ellipsis aria-hidden className="size-4" />
        <span>Actions</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-40 min-w-52 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {row.deactivated ? null : (
            <DropdownMenu.Item asChild className={MENU_ITEM}>
              <Link to={`/profile/${encodeURIComponent(row.username)}`}>
                <Eye aria-hidden className="size-4" />
                View card
              </Link>
            </DropdownMenu.Item>
          )}
          {invitable ? (
            <DropdownMenu.Item className={MENU_ITEM} onSelect={() => send({ intent: "invite" })}>
              <Send aria-hidden className="size-4" />
              {row.invitedAt ? "Remind" : "Invite"}
            </DropdownMenu.Item>
          ) : null}
          {roleChangeable ? (
            <DropdownMenu.Item
              className={MENU_ITEM}
              onSelect={() => send({ intent: row.admin ? "remove-admin" : "make-admin" })}
            >
              {row.admin ? (
                <ShieldMinus aria-hidden className="size-4" />
              ) : (
                <ShieldPlus aria-hidden className="size-4" />
              )}
              {row.admin ? "Remove administrator" : "Make administrator"}
            </DropdownMenu.Item>
          ) : null}
          {appointable ? (
            <DropdownMenu.Item className={MENU_ITEM} onSelect={() => onAppoint(row)}>
              <Store aria-hidden className="size-4" />
              {row.administers.length ? "Change brands they run…" : "Make brand administrator…"}
            </DropdownMenu.Item>
          ) : null}
          {siteWide && row.secondFactor ? (
            <DropdownMenu.Item className={MENU_ITEM} onSelect={() => send({ intent: "remove-second-factor" })}>
              <KeyRound aria-hidden className="size-4" />
              Remove second step
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Item
            className={MENU_ITEM}
            onSelect={() =>
              row.deactivated ? send({ intent: "reactivate", version: row.version }) : onDeactivate(row)
            }
          >
            {row.deactivated ? <Power aria-hidden className="size-4" /> : <PowerOff aria-hidden className="size-4" />}
            {row.deactivated ? "Reactivate card" : "Deactivate card…"}
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
          <DropdownMenu.Item className={cn(MENU_ITEM, "text-red-700 dark:text-red-400")} onSelect={() => onDelete(row)}>
            <Trash2 aria-hidden className="size-4" />
            Delete…
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** The row's plain forms, shown only without JavaScript. */
function PlainActions({ row, returnTo }: RowActionProps) {
  const name = fullName(row);
  return (
    <div className="hidden gap-1 no-js:flex">
      {row.deactivated ? null : <InviteButton row={row} returnTo={returnTo} />}
      {row.deactivated ? null : (
        <Link to={`/profile/${encodeURIComponent(row.username)}`} className={buttonClasses("ghost", "sm")}>
          <Eye aria-hidden className="size-4" />
          View<span className="sr-only"> {name}</span>
        </Link>
      )}
      <Form method="post" action="/admin/profiles" className="contents">
        <input type="hidden" name="intent" value={row.deactivated ? "reactivate" : "deactivate"} />
        <input type="hidden" name="id" value={row.id} />
        <input type="hidden" name="version" value={row.version} />
        <input type="hidden" name="redirectTo" value={returnTo} />
        <Button
          type="submit"
          variant="ghost"
          size="sm"
          aria-label={`${row.deactivated ? "Reactivate" : "Deactivate"} ${name}`}
        >
          {row.deactivated ? <Power aria-hidden className="size-4" /> : <PowerOff aria-hidden className="size-4" />}
          {row.deactivated ? "Reactivate" : "Deactivate"}
        </Button>
      </Form>
    </div>
  );
}

/** Which brands a person runs: a checkbox per brand; none takes brand administration away. */
function BrandAdministrationDialog({
  row,
  brands,
  returnTo,
  onClose,
}: {
  row: Row;
  brands: DashboardData["brands"];
  returnTo: string;
  onClose: () => void;
}) {
  const { fetcher, busy, failure: failed, onSubmit } = useDialogFetcher(onClose);
  const name = fullName(row);
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Brands ${name} runs`}>
      <fetcher.Form method="post" action="/admin/profiles" className="space-y-5" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="brand-administration" />
        <input type="hidden" name="id" value={row.id} />
        <input type="hidden" name="redirectTo" value={returnTo} />
        <FormAlert failure={failed} nothingDone="Nothing was changed." />
        <p className="text-sm text-slate-600 dark:text-slate-300">
          A brand administrator manages the cards, look, analytics and audit log of their brands, and sees nothing of
          other brands. They cannot change site settings, sign-in or roles.
        </p>
        {brands.length ? (
          <fieldset className="space-y-2">
            <legend className="mb-2 text-sm font-medium text-slate-800 dark:text-slate-200">Brands</legend>
            {brands.map((brand) => (
              <label key={brand.id} className="flex items-center gap-3 text-sm text-slate-800 dark:text-slate-200">
                <input
                  type="checkbox"
                  name="brandIds"
                  value={brand.id}
                  defaultChecked={row.administers.includes(brand.id)}
                  className="size-4 rounded border-slate-300 accent-[var(--color-brand-solid)]"
                />
                {brand.name}
                {brand.active ? null : <span className="text-slate-500 dark:text-slate-400">(inactive)</span>}
              </label>
            ))}
          </fieldset>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">There are no brands yet: add one on Brands.</p>
        )}
        {failed?.fieldErrors?.brandIds?.length ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {failed.fieldErrors.brandIds[0]}
          </p>
        ) : null}
        <div className={DIALOG_FORM_ACTIONS}>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy || !brands.length}>
            {busy ? "Saving..." : "Save"}
          </Button>
        </div>
      </fetcher.Form>
    </Modal>
  );
}

function EditProfileDialog({
  row,
  brands,
  brandRequired,
  returnTo,
  onClose,
}: {
  row: Row;
  /** A brand administrator keeps every card in one of their brands. */
  brandRequired: boolean;
  brands: DashboardData["brands"];
  returnTo: string;
  onClose: () => void;
}) {
  const { fetcher, busy: saving, failure: failed, onSubmit } = useDialogFetcher(onClose);
  const pickable = brands.filter((brand) => brand.active || brand.id === row.companyBrandId);
  // A value the card's brand sets on all its cards is changed in the brand's template, not here.
  const brand = brands.find((one) => one.id === row.companyBrandId);
  const locked = Object.fromEntries((brand?.setFields ?? []).map((field) => [field, brand?.name ?? ""]));
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Edit Profile: ${fullName(row)}`} wide>
      <fetcher.Form
        method="post"
        action="/admin/profiles"
        encType="multipart/form-data"
        noValidate
        className="space-y-5"
        onSubmit={onSubmit}
      >
        <input type="hidden" name="intent" value="update" />
        <input type="hidden" name="id" value={row.id} />
        <input type="hidden" name="redirectTo" value={returnTo} />
        <FormAlert failure={failed} nothingDone="Nothing was saved." />
        <ImagePicker name="photo" label="Profile photo" currentUrl={row.photoUrl} errors={failed?.fieldErrors?.photo} />
        <ProfileFormFields
          values={failed?.values ? profileFormValues(failed.values) : profileFormValues(row)}
          errors={failed?.fieldErrors}
          brands={pickable}
          brandRequired={brandRequired}
          bioRows={3}
          disabled={saving}
          withManager
          locked={locked}
        />
        <div className={DIALOG_FORM_ACTIONS}>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Updating..." : "Save Changes"}
          </Button>
        </div>
      </fetcher.Form>
      <OldUsernames row={row} returnTo={returnTo} />
    </Modal>
  );
}

/**
 * The card's old usernames, which still lead to it and which nobody else may
 * take; an administrator can let one go, for the person who should have it.
 */
function OldUsernames({ row, returnTo }: { row: Row; returnTo: string }) {
  const navigation = useNavigation();
  if (row.oldUsernames.length === 0) return null;
  return (
    <section
      aria-labelledby={`old-usernames-${row.id}`}
      className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-700"
    >
      <h3 id={`old-usernames-${row.id}`} className="text-sm font-medium text-slate-900 dark:text-slate-100">
        Earlier names
      </h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Links and QR codes with these names still lead to this card, and nobody else can take them for a year. Release
        one to give it to someone else.
      </p>
      <ul className="mt-3 space-y-2">
        {row.oldUsernames.map((username) => {
          const releasing =
            navigation.state === "submitting" &&
            navigation.formData?.get("intent") === "release-username" &&
            navigation.formData?.get("username") === username;
          return (
            <li key={username} className="flex items-center justify-between gap-3">
              <span className="text-sm wrap-anywhere text-slate-700 dark:text-slate-300">@{username}</span>
              <Form method="post" action="/admin/profiles">
                <input type="hidden" name="intent" value="release-username" />
                <input type="hidden" name="id" value={row.id} />
                <input type="hidden" name="username" value={username} />
                <input type="hidden" name="redirectTo" value={returnTo} />
                <Button
                  type="submit"
                  variant="secondary"
                  size="sm"
                  disabled={releasing}
                  aria-label={`Release @${username}`}
                >
                  {releasing ? "Releasing..." : "Release"}
                </Button>
              </Form>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Why a confirmed action failed: the form's message, or the one about the card it named (your own card). */
function ConfirmFailure({ failure }: { failure: ActionFailure | undefined }) {
  const message = failure?.formError ?? failure?.fieldErrors?.id?.[0];
  return message ? <Alert tone="error">{message}</Alert> : null;
}
