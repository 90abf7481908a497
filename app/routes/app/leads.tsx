import { Building2, Download, Inbox, Mail, Phone, QrCode, Search, Trash2 } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { readForm } from "~/.server/http/form-data";
import { notFound, parseQuery } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { leadsOf } from "~/.server/leads/access";
import { deleteLead, LEADS_PER_PAGE, listLeads, saveLeadNote } from "~/.server/leads/owner";
import { NotFoundError, ValidationError } from "~/.server/platform/errors";
import { parseListFilters, parseSearchText } from "~/.server/platform/validation";
import { EmptyState } from "~/components/empty-state";
import { TextareaField } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { PageHeader } from "~/components/page-header";
import { Pagination } from "~/components/pagination";
import { SearchBox, useLiveSearch } from "~/components/search-form";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClasses } from "~/components/ui/button";
import type { ActionFailure } from "~/lib/action-result";
import { LEAD_NOTE_MAX, LEAD_SOURCE_LABELS } from "~/lib/leads";
import { telHref } from "~/lib/phone";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/leads";

export const meta: Route.MetaFunction = () => [{ title: "Leads" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { q, page } = parseQuery(() => ({ q: parseSearchText(url), page: parseListFilters(url).page }));
  const card = await leadsOf(context.get(viewerContext), url.searchParams.get("card"));
  // Another card's leads: not found, whether or not the card exists.
  if (card === "hidden") notFound("Leads not found");
  if (!card) return { card: null, q, page, rows: [], total: 0, pageCount: 0 };
  const { rows, total } = await listLeads(card.profileId, { q, page });
  return {
    card,
    q,
    page,
    total,
    pageCount: Math.ceil(total / LEADS_PER_PAGE),
    rows: rows.map((lead) => ({
      id: lead.id,
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      company: lead.company,
      title: lead.title,
      message: lead.message,
      ownerNote: lead.ownerNote,
      source: lead.source,
      wantsCard: lead.wantsCard,
      createdAt: lead.createdAt.toISOString(),
    })),
  };
}

type NoteFailure = ActionFailure & { leadId?: string };

/** Only a card's owner writes notes and deletes: an administrator's reading stays reading. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer.profile) notFound("Leads not found");
  const profileId = viewer.profile.id;
  const form = await readForm(request);
  const intent = form.get("intent");
  const leadId = String(form.get("leadId") ?? "");
  if (!z.uuid().safeParse(leadId).success) return data<NoteFailure>({ formError: "Choose a lead from the list." }, 400);
  const here = new URL(request.url);
  const back = `/leads${here.search}`;
  try {
    if (intent === "note") {
      await saveLeadNote(profileId, leadId, String(form.get("note") ?? ""));
      return redirectWithToast(back, { text: "Note saved." });
    }
    if (intent === "delete") {
      const deleted = await deleteLead(profileId, leadId);
      return redirectWithToast(back, { text: `${deleted.name}'s details were deleted.` });
    }
  } catch (error) {
    if (error instanceof ValidationError) return data<NoteFailure>({ fieldErrors: error.fieldErrors, leadId }, 400);
    if (error instanceof NotFoundError) {
      return data<NoteFailure>({ formError: "This lead was deleted meanwhile.", leadId }, 404);
    }
    throw error;
  }
  return data<NoteFailure>({ formError: "Choose what to do with the lead." }, 400);
}

export default function Leads({ loaderData, actionData }: Route.ComponentProps) {
  const { card, q, rows, total, page, pageCount } = loaderData;
  const search = useLiveSearch("/leads", { q });
  const failed = actionData as NoteFailure | undefined;
  if (!card) {
    return (
      <>
        <PageHeader title="Leads" description="People who shared their details from your card." />
        <EmptyState Icon={Inbox} title="You have no card yet" text="Leads come from your card once you have one." />
      </>
    );
  }
  const exportQuery = new URLSearchParams({ ...(card.own ? {} : { card: card.username }), ...(q ? { q } : {}) });
  const suffix = exportQuery.size ? `?${exportQuery}` : "";
  return (
    <>
      <PageHeader
        title={card.own ? "Leads" : `${card.name}'s leads`}
        description={
          card.own
            ? "People who shared their details from your card or its QR code, newest first."
            : "Shown to administrators because the company's settings allow it. Only the card's owner can change them."
        }
        actions={
          total > 0 ? (
            <>
              <a href={`/leads/export.csv${suffix}`} download className={buttonClasses("secondary", "sm")}>
                <Download aria-hidden className="size-4" /> Export CSV
              </a>
              <a href={`/leads/export.vcf${suffix}`} download className={buttonClasses("secondary", "sm")}>
                <Download aria-hidden className="size-4" /> Export contacts
              </a>
            </>
          ) : null
        }
      />
      <Form
        method="get"
        role="search"
        ref={search.ref}
        onChange={search.onChange}
        onSubmit={search.onSubmit}
        className="mb-6"
      >
        {card.own ? null : <input type="hidden" name="card" value={card.username} />}
        <SearchBox
          id="lead-search"
          label="Search leads"
          placeholder="Search by name, company, email or note"
          defaultValue={q}
        />
      </Form>
      {failed?.formError && !failed.leadId ? (
        <Alert tone="error" className="mb-4">
          {failed.formError}
        </Alert>
      ) : null}
      {rows.length === 0 ? (
        q ? (
          <EmptyState Icon={Search} title="No leads match" text={`Nothing matches “${q}”. Try another word.`} />
        ) : (
          <EmptyState
            Icon={Inbox}
            title="No leads yet"
            text="When someone shares their details from your card or its QR code, they appear here and you get an e-mail."
          />
        )
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
            {total === 1 ? "1 lead" : `${total.toLocaleString("en")} leads`}
          </p>
          <ul className="space-y-4" aria-label="Leads">
            {rows.map((lead) => (
              <LeadItem
                key={lead.id}
                lead={lead}
                own={card.own}
                failure={failed?.leadId === lead.id ? failed : undefined}
              />
            ))}
          </ul>
          <Pagination page={page} pageCount={pageCount} className="mt-6" />
        </>
      )}
    </>
  );
}

type LeadRow = Route.ComponentProps["loaderData"]["rows"][number];

function LeadItem({ lead, own, failure }: { lead: LeadRow; own: boolean; failure?: NoteFailure }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("leadId") === lead.id;
  const headingId = `lead-${lead.id}`;
  const SourceIcon = lead.source === "qr" ? QrCode : Building2;
  return (
    <li
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      data-testid="lead"
    >
      <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold wrap-anywhere">
            {lead.name}
          </h2>
          {lead.title || lead.company ? (
            <p className="text-sm text-slate-600 wrap-anywhere dark:text-slate-400">
              {[lead.title, lead.company].filter(Boolean).join(" · ")}
            </p>
          ) : null}
        </div>
        <p className="flex shrink-0 items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
          <SourceIcon aria-hidden className="size-3.5" />
          <span>
            <span className="sr-only">From: </span>
            {LEAD_SOURCE_LABELS[lead.source]} · <LocalTime at={lead.createdAt} />
          </span>
        </p>
      </div>
      <ul className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm">
        {lead.email ? (
          <li>
            <a
              href={`mailto:${lead.email}`}
              className="inline-flex items-center gap-1.5 font-medium text-brand-ink hover:underline"
            >
              <Mail aria-hidden className="size-4" />
              <span className="break-all">{lead.email}</span>
            </a>
          </li>
        ) : null}
        {lead.phone ? (
          <li>
            <a
              href={telHref(lead.phone)}
              className="inline-flex items-center gap-1.5 font-medium text-brand-ink hover:underline"
            >
              <Phone aria-hidden className="size-4" />
              {lead.phone}
            </a>
          </li>
        ) : null}
      </ul>
      {lead.message ? (
        <blockquote className="mt-3 border-l-2 border-slate-200 pl-3 text-sm whitespace-pre-line text-slate-700 wrap-anywhere dark:border-slate-700 dark:text-slate-300">
          <span className="sr-only">Their note: </span>
          {lead.message}
        </blockquote>
      ) : null}
      {own ? (
        <div className="mt-4 grid gap-3 border-t border-slate-100 pt-4 sm:grid-cols-[1fr_auto] sm:items-end dark:border-slate-800">
          <Form method="post" className="space-y-2" preventScrollReset>
            <input type="hidden" name="leadId" value={lead.id} />
            <TextareaField
              label="Your note"
              name="note"
              rows={2}
              maxLength={LEAD_NOTE_MAX}
              defaultValue={lead.ownerNote ?? ""}
              errors={failure?.fieldErrors?.form ?? (failure?.formError ? [failure.formError] : undefined)}
            />
            <Button type="submit" name="intent" value="note" variant="secondary" size="sm" disabled={busy}>
              Save note
            </Button>
          </Form>
          <details className="group text-sm">
            <summary className={buttonClasses("destructive-ghost", "sm", "cursor-pointer list-none")}>
              <Trash2 aria-hidden className="size-4" /> Delete…
            </summary>
            <Form
              method="post"
              className="mt-2 space-y-2 rounded-lg border border-red-200 p-3 dark:border-red-900/60"
              preventScrollReset
            >
              <input type="hidden" name="leadId" value={lead.id} />
              <p>Delete {lead.name}'s details for good?</p>
              <Button type="submit" name="intent" value="delete" variant="destructive" size="sm" disabled={busy}>
                Delete lead
              </Button>
            </Form>
          </details>
        </div>
      ) : lead.ownerNote ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          <span className="font-medium">Owner's note:</span> {lead.ownerNote}
        </p>
      ) : null}
    </li>
  );
}
