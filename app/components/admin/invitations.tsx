import { BellRing, Mail, MailWarning, RotateCw, Send, Tags } from "lucide-react";
import { useRef, useState } from "react";
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Confirm } from "~/components/ui/dialog";
import type { InvitationSummary, ManagedProfile } from "~/lib/dashboard";
import { fullName } from "~/lib/names";

/** The id of the form the chosen people are sent with ("Invite selected", "Set brand"); each row's box belongs to it. */
const SELECTION_FORM = "selected-people";

export const INVITATION_OPTIONS = [
  { value: "all", label: "All Invitations" },
  { value: "not-invited", label: "Not invited" },
  { value: "invited", label: "Invited" },
  { value: "reminded", label: "Reminded" },
  { value: "claimed", label: "Claimed" },
];

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

function count(value: number) {
  return value.toLocaleString("en");
}

/** A button's words: shorter on a phone, where two buttons share a row. */
function Wording({ label, short }: { label: string; short?: string }) {
  if (!short) return <>{label}</>;
  return (
    <>
      <span className="sm:hidden">{short}</span>
      <span className="max-sm:hidden">{label}</span>
    </>
  );
}

/** "Ada Lovelace, Grace Hopper and 51 others": the first names, then how many more. */
function recipients(named: string[], total: number) {
  const others = total - named.length;
  if (others <= 0) {
    return named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}` : (named[0] ?? "");
  }
  return `${named.join(", ")} and ${others === 1 ? "1 other" : `${count(others)} others`}`;
}

/** Reminds everyone invited who has not claimed their card yet (each at most once an hour). */
export function RemindWaitingButton({
  waiting,
  returnTo,
  label,
  shortLabel,
}: {
  waiting: number;
  returnTo: string;
  label: string;
  /** The words on a phone, where it shares a row. */
  shortLabel?: string;
}) {
  const reminding = useBusy("remind-all");
  return (
    <Form method="post" action="/admin/profiles">
      <input type="hidden" name="intent" value="remind-all" />
      <input type="hidden" name="redirectTo" value={returnTo} />
      <Button type="submit" variant="secondary" className="w-full sm:w-auto" disabled={reminding || waiting === 0}>
        <BellRing aria-hidden className="size-4" />
        {reminding ? "Reminding..." : <Wording label={label} short={shortLabel} />}
      </Button>
    </Form>
  );
}

/**
 * A button that sends invitations to many people at once. With scripts, the
 * press asks first, saying how many and whom; without, the press sends.
 */
export function ConfirmedSend({
  action,
  fields,
  label,
  shortLabel,
  busy,
  recipients: people,
  preview,
  returnTo,
  variant = "secondary",
}: {
  action?: string;
  fields: Record<string, string>;
  label: string;
  /** The words on a phone, where it shares a row. */
  shortLabel?: string;
  busy: boolean;
  recipients: { count: number; firstNames: string[] };
  /** The mail as it will arrive, shown in the confirmation with a way to send it to oneself first. */
  preview?: MailPreviewInfo;
  returnTo: string;
  variant?: "primary" | "secondary";
}) {
  const [confirming, setConfirming] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const [search] = useSearchParams();
  const people_ = people.count === 1 ? "1 person" : `${count(people.count)} people`;
  const sendLabel = `Send ${people.count === 1 ? "1 invitation" : `${count(people.count)} invitations`}`;
  const hidden = Object.entries(fields).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));
  const explanation = (
    <>
      <p>Each gets a mail with a link to claim their card: {recipients(people.firstNames, people.count)}.</p>
      <p>Nobody who asked for no more invitations is sent one.</p>
      {preview ? <MailPreview preview={preview} returnTo={returnTo} /> : null}
    </>
  );
  return (
    <>
      <Form method="post" action={action} ref={form} className="no-js:hidden">
        {hidden}
        <Button
          type="submit"
          variant={variant}
          className="w-full sm:w-auto"
          disabled={busy || people.count === 0}
          onClick={(event) => {
            event.preventDefault();
            setConfirming(true);
          }}
        >
          <Send aria-hidden className="size-4" />
          {busy ? "Inviting..." : <Wording label={label} short={shortLabel} />}
        </Button>
      </Form>
      {/* Without scripts, the press opens the same question on the page, and its own form sends. */}
      {people.count > 0 ? (
        <Link
          to={`?confirm=${fields.intent}`}
          preventScrollReset
          className={buttonClasses(variant, "md", "hidden w-full no-js:inline-flex sm:w-auto")}
        >
          <Send aria-hidden className="size-4" />
          <Wording label={label} short={shortLabel} />
        </Link>
      ) : null}
      {search.get("confirm") === fields.intent && people.count > 0 ? (
        <section
          aria-label={`Invite ${people_}?`}
          className="col-span-2 hidden w-full space-y-2 rounded-lg border border-slate-300 bg-white p-4 text-sm text-slate-600 no-js:block dark:border-slate-700 dark:bg-slate-900 dark:text-slate-400"
        >
          <h2 className="text-base font-semibold text-slate-900 dark:text-white">Invite {people_}?</h2>
          {explanation}
          <Form method="post" action={action} className="flex flex-wrap gap-2 pt-2">
            {hidden}
            <Button type="submit">{sendLabel}</Button>
            <Link to="?" className={buttonClasses("secondary")}>
              Cancel
            </Link>
          </Form>
        </section>
      ) : null}
      <Confirm
        open={confirming}
        onOpenChange={setConfirming}
        title={`Invite ${people_}?`}
        confirmLabel={sendLabel}
        tone="primary"
        busy={busy}
        onConfirm={() => {
          setConfirming(false);
          form.current?.requestSubmit();
        }}
      >
        {explanation}
      </Confirm>
    </>
  );
}

/** What the confirmation shows of the mail: its words, and the brands whose members receive it. */
export type MailPreviewInfo = {
  subject: string;
  text: string;
  /** The brands within reach, each of whose members gets the mail in its name and colours. */
  brands: { id: number; name: string }[];
  /** Whether cards of no brand are within reach (they get the company's mail). */
  noBrand: boolean;
};

/**
 * The invitation as it will arrive, drawn in a frame as a mail program shows it, as each brand's
 * members receive it; and a way to send that one to oneself first.
 */
function MailPreview({ preview, returnTo }: { preview: MailPreviewInfo; returnTo: string }) {
  const choices = [
    ...(preview.noBrand ? [{ value: "", label: "No brand (the company's mail)" }] : []),
    ...preview.brands.map((brand) => ({ value: String(brand.id), label: brand.name })),
  ];
  const [brand, setBrand] = useState(choices[0]?.value ?? "");
  const chosen = choices.find((choice) => choice.value === brand)?.label;
  // A brand administrator whose brands are all switched off has no mail to show.
  if (choices.length === 0) return null;
  return (
    <details className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <summary className="cursor-pointer font-medium text-slate-800 dark:text-slate-200">The mail they receive</summary>
      {choices.length > 1 ? (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <label htmlFor="preview-brand" className="text-sm text-slate-700 dark:text-slate-300">
            As received in
          </label>
          <select
            id="preview-brand"
            value={brand}
            onChange={(event) => setBrand(event.target.value)}
            className="h-9 w-full max-w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 sm:w-auto dark:border-slate-600 dark:bg-slate-800 dark:text-white"
          >
            {choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <iframe
        key={brand}
        title={chosen ? `The invitation as ${chosen} receives it` : "The invitation as it arrives"}
        src={`/admin/invitation-preview.html?brand=${brand}`}
        sandbox=""
        loading="lazy"
        className="mt-3 h-80 w-full rounded-md border border-slate-200 bg-white dark:border-slate-700"
      />
      <Form method="post" action="/admin/profiles" className="mt-3">
        <input type="hidden" name="intent" value="test-invitation" />
        <input type="hidden" name="brand" value={brand} />
        <input type="hidden" name="redirectTo" value={returnTo} />
        <Button type="submit" variant="secondary" size="sm">
          <Mail aria-hidden className="size-4" />
          Send this one to me as a test
        </Button>
      </Form>
    </details>
  );
}

/**
 * The buttons above the list: invite everyone not yet invited, remind everyone waiting, and for
 * the chosen people, invite them or move them into a brand.
 */
export function InvitationToolbar({
  summary,
  returnTo,
  brands,
  noBrand,
}: {
  summary: InvitationSummary;
  returnTo: string;
  /** The brands the chosen people can be moved to. */
  brands: { id: number; name: string }[];
  /** Whether "No brand" is one of them (administrators of the whole site only). */
  noBrand: boolean;
}) {
  const inviting = useBusy("invite-all");
  const selecting = useBusy("invite-selected");
  const moving = useBusy("set-brand");
  return (
    <div className="mb-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
      {/* On a phone the two "all" buttons share a row. */}
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center">
        <ConfirmedSend
          action="/admin/profiles"
          fields={{ intent: "invite-all", redirectTo: returnTo }}
          label={`Invite all not yet invited (${count(summary.notInvited)})`}
          shortLabel={`Invite all (${count(summary.notInvited)})`}
          busy={inviting}
          recipients={{ count: summary.notInvited, firstNames: summary.firstNotInvited }}
          preview={{ ...summary.preview, brands, noBrand }}
          returnTo={returnTo}
        />
        <RemindWaitingButton
          waiting={summary.invitedUnclaimed}
          returnTo={returnTo}
          label={`Remind all invited but not claimed (${count(summary.invitedUnclaimed)})`}
          shortLabel={`Remind all (${count(summary.invitedUnclaimed)})`}
        />
      </div>
      <Form
        method="post"
        action="/admin/profiles"
        id={SELECTION_FORM}
        className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center"
      >
        <input type="hidden" name="redirectTo" value={returnTo} />
        <Button
          type="submit"
          name="intent"
          value="invite-selected"
          variant="secondary"
          className="w-full sm:w-auto"
          disabled={selecting}
        >
          <Mail aria-hidden className="size-4" />
          {selecting ? "Inviting..." : "Invite selected"}
        </Button>
        {brands.length ? (
          <div className="flex gap-2">
            <label htmlFor="bulk-brand" className="sr-only">
              Brand for the selected people
            </label>
            <select
              id="bulk-brand"
              name="brandId"
              className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-950"
            >
              {brands.map((brand) => (
                <option key={brand.id} value={brand.id}>
                  {brand.name}
                </option>
              ))}
              {noBrand ? <option value="">No brand</option> : null}
            </select>
            <Button type="submit" name="intent" value="set-brand" variant="secondary" disabled={moving}>
              <Tags aria-hidden className="size-4" />
              {moving ? "Moving..." : "Set brand"}
            </Button>
          </div>
        ) : null}
      </Form>
    </div>
  );
}

/** Invitation mails waiting in the queue, with a way to stop them before they go. */
export function QueuedMails({ summary, returnTo }: { summary: InvitationSummary; returnTo: string }) {
  const cancelling = useBusy("cancel-queued");
  if (summary.queued === 0) return null;
  return (
    <Form
      method="post"
      action="/admin/profiles"
      className="mb-4 flex flex-col gap-2 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm sm:flex-row sm:items-center sm:justify-between dark:border-sky-900 dark:bg-sky-950/40"
    >
      <input type="hidden" name="intent" value="cancel-queued" />
      <input type="hidden" name="redirectTo" value={returnTo} />
      <p className="text-sky-900 dark:text-sky-100" aria-live="polite">
        {summary.queued === 1
          ? "1 invitation mail is waiting to be sent."
          : `${count(summary.queued)} invitation mails are waiting to be sent.`}
      </p>
      <Button type="submit" variant="secondary" size="sm" disabled={cancelling}>
        {cancelling ? "Cancelling..." : "Cancel the waiting mails"}
      </Button>
    </Form>
  );
}

/** Invitation mails the queue gave up on, with a button to try them again. */
export function FailedMails({ summary, returnTo }: { summary: InvitationSummary; returnTo: string }) {
  const retrying = useBusy("retry-mail");
  if (summary.failedCount === 0) return null;
  return (
    <div
      role="alert"
      className="mb-4 rounded-2xl border border-red-200 bg-red-50 p-4 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex gap-2">
          <MailWarning aria-hidden className="mt-0.5 size-4 shrink-0" />
          <div>
            <p className="font-semibold">
              {summary.failedCount === 1
                ? "1 invitation mail could not be sent"
                : `${count(summary.failedCount)} invitation mails could not be sent`}
            </p>
            <p>The mail server refused them after several tries. Check the mail settings, then retry.</p>
          </div>
        </div>
        <Form method="post" action="/admin/profiles" className="shrink-0">
          <input type="hidden" name="intent" value="retry-mail" />
          <input type="hidden" name="redirectTo" value={returnTo} />
          <Button type="submit" variant="secondary" size="sm" disabled={retrying}>
            <RotateCw aria-hidden className="size-4" />
            {retrying ? "Retrying..." : "Retry sending"}
          </Button>
        </Form>
      </div>
      <ul className="mt-3 space-y-1 pl-6" aria-label="Mails that could not be sent">
        {summary.failed.map((mail) => (
          <li key={mail.id} className="wrap-anywhere">
            <span className="font-medium">{mail.email}</span> — {mail.kind === "reminder" ? "reminder" : "invitation"},{" "}
            {mail.attempts} {mail.attempts === 1 ? "try" : "tries"}
            {mail.lastError ? `: ${mail.lastError}` : ""}
          </li>
        ))}
      </ul>
    </div>
  );
}

function shortDate(iso: string) {
  return new Date(iso).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** "Not invited", "Invited on 3 Nov 2026", "Reminded 2 times", "Asked for no more invitations", or "Claimed". */
type StatusRow = Pick<ManagedProfile, "claimed" | "deactivated" | "invitedAt" | "remindersSent" | "invitationsStopped">;

/** A card's one status, as the table shows it: where it is on its way from prepared to claimed, or switched off. */
function statusOf(row: StatusRow): { text: string; tone: "done" | "waiting" | "new" | "off"; detail: string | null } {
  if (row.deactivated) return { text: "Deactivated", tone: "off", detail: null };
  if (row.claimed) return { text: "Claimed", tone: "done", detail: null };
  if (row.invitationsStopped) return { text: "Asked for no more invitations", tone: "off", detail: null };
  if (!row.invitedAt) return { text: "Not invited", tone: "new", detail: null };
  const reminded =
    row.remindersSent === 0 ? null : `Reminded ${row.remindersSent === 1 ? "once" : `${row.remindersSent} times`}`;
  return { text: `Invited on ${shortDate(row.invitedAt)}`, tone: "waiting", detail: reminded };
}

const STATUS_TONES = {
  done: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  waiting: "bg-sky-50 text-sky-800 dark:bg-sky-950 dark:text-sky-200",
  new: "bg-orange-50 text-orange-800 dark:bg-orange-950 dark:text-orange-200",
  off: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100",
} as const;

const STATUS_DOTS = {
  done: "bg-emerald-500",
  waiting: "bg-sky-500",
  new: "bg-orange-500",
  off: "bg-slate-500",
} as const;

/** One status per card: Not invited → Invited on … → Claimed, or Deactivated. */
export function CardStatus({ row }: { row: StatusRow }) {
  const status = statusOf(row);
  return (
    <div className="flex flex-col items-start gap-0.5">
      <span
        className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${STATUS_TONES[status.tone]}`}
        data-testid="invitation-state"
      >
        <span aria-hidden className={`size-1.5 shrink-0 rounded-full ${STATUS_DOTS[status.tone]}`} />
        {status.text}
      </span>
      {status.detail ? <span className="text-xs text-slate-500 dark:text-slate-400">{status.detail}</span> : null}
    </div>
  );
}

/** The box that adds a card to the chosen people ("Invite selected" skips those who claimed theirs). */
export function SelectBox({ row }: { row: ManagedProfile }) {
  return (
    <input
      type="checkbox"
      name="ids"
      value={row.id}
      form={SELECTION_FORM}
      aria-label={`Select ${fullName(row)}`}
      className="size-4 rounded border-slate-300 accent-brand dark:border-slate-600"
    />
  );
}

/** "Invite" on one unclaimed card, or "Remind" once it was invited (a reminder, on the record as one). */
export function InviteButton({ row, returnTo }: { row: ManagedProfile; returnTo: string }) {
  if (row.claimed || row.invitationsStopped) return null;
  const label = row.invitedAt ? "Remind" : "Invite";
  return (
    <Form method="post" action="/admin/profiles">
      <input type="hidden" name="intent" value="invite" />
      <input type="hidden" name="id" value={row.id} />
      <input type="hidden" name="redirectTo" value={returnTo} />
      <Button type="submit" variant="ghost" size="sm" aria-label={`${label}: ${fullName(row)}`}>
        <Send aria-hidden className="size-4" />
        <span className="md:hidden 2xl:inline">{label}</span>
      </Button>
    </Form>
  );
}
