import { ArrowLeft, Download, Play, RotateCcw, Trash2 } from "lucide-react";
import { useEffect } from "react";
import { Form, Link, redirect, useNavigation, useRevalidator } from "react-router";
import { requireAction } from "~/.server/http/authz";
import { readForm } from "~/.server/http/form-data";
import { failure, failureFrom, notFound } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import {
  columnExamples,
  discardImport,
  getImport,
  type ImportChoices,
  importBrandOptions,
  importScope,
  inviteNewPeopleOfImport,
  isStale,
  newPeopleOfImport,
  queueImport,
  rowOutcomes,
  saveImportSettings,
  settingsOf,
} from "~/.server/imports/imports";
import { formatOf } from "~/.server/imports/mapping";
import { rowValues, shownFields } from "~/.server/imports/plan";
import { PREVIEW_PAGE_ROWS, previewImport } from "~/.server/imports/preview";
import { wakeImportWorker } from "~/.server/imports/run";
import { invitationPreview } from "~/.server/invitations/invitations";
import { diskSpaceLow } from "~/.server/platform/disk-space";
import { NotFoundError } from "~/.server/platform/errors";
import { ImportValues } from "~/components/admin/import-values";
import { ConfirmedSend } from "~/components/admin/invitations";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form-alert";
import { ErrorList } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { Pagination } from "~/components/pagination";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClasses } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import {
  IMPORT_FIELDS,
  importFieldLabel,
  MAX_LISTED_VALUES,
  MERGEABLE_FIELDS,
  OVERWRITABLE_FIELDS,
} from "~/lib/import";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/import-detail";

export const meta: Route.MetaFunction = ({ data }) => [{ title: data ? `Import ${data.fileName}` : "Import profiles" }];

function pageOf(url: URL): number {
  const text = url.searchParams.get("page") ?? "";
  return /^[0-9]{1,5}$/.test(text) && Number(text) >= 1 ? Number(text) : 1;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = requireAction(context.get(viewerContext), "create:profile");
  let record: Awaited<ReturnType<typeof getImport>>;
  try {
    record = await getImport(viewer, params.id);
  } catch (error) {
    if (error instanceof NotFoundError) notFound("Import not found");
    throw error;
  }
  const url = new URL(request.url);
  const errorsOnly = url.searchParams.get("show") === "errors";
  // Just started from this page: once it is done, the page says how it went.
  const justStarted = url.searchParams.has("started");
  const page = pageOf(url);
  const summary = {
    id: record.id,
    fileName: record.fileName,
    status: record.status,
    // Waiting for disk space writes no heartbeat: the import is paused, not lost.
    waitingForSpace: (record.status === "queued" || record.status === "running") && diskSpaceLow() !== null,
    stale: isStale(record) && diskSpaceLow() === null,
    error: record.error,
    totalRows: record.totalRows,
    processedRows: record.processedRows,
    counts: {
      created: record.createdCards,
      updated: record.updatedCards,
      unchanged: record.unchangedRows,
      failed: record.failedRows,
      skipped: record.skippedRows,
    },
    errorsOnly,
    finished:
      justStarted && record.status === "done"
        ? `The import finished: ${record.createdCards.toLocaleString("en-US")} new ${record.createdCards === 1 ? "card" : "cards"}, ${record.updatedCards.toLocaleString("en-US")} updated${record.skippedRows ? `, ${record.skippedRows.toLocaleString("en-US")} skipped` : ""}${record.failedRows ? `, ${record.failedRows.toLocaleString("en-US")} not imported` : ""}.`
        : null,
  };
  if (record.status === "draft") {
    return {
      ...summary,
      headers: record.headers,
      format: formatOf(record.headers)?.name ?? null,
      examples: await columnExamples(record),
      settings: settingsOf(record),
      // The brands every row can be put into; only an administrator of the whole site creates brands.
      brands: await importBrandOptions(viewer),
      siteWide: importScope(viewer) === null,
      preview: await previewImport(viewer, record.id, { page, errorsOnly }),
      outcomes: null,
      newPeople: null,
    };
  }
  const settings = settingsOf(record);
  const outcomes = await rowOutcomes(record.id, {
    errorsOnly,
    offset: (page - 1) * PREVIEW_PAGE_ROWS,
    limit: PREVIEW_PAGE_ROWS,
  });
  return {
    ...summary,
    headers: record.headers,
    format: null,
    examples: [],
    settings,
    brands: [],
    siteWide: importScope(viewer) === null,
    // Offered once the import is done: the cards it made that wait for their first invitation.
    newPeople:
      record.status === "done"
        ? {
            ...(await newPeopleOfImport(viewer, record.id)),
            preview: {
              ...(await invitationPreview()),
              brands: await importBrandOptions(viewer),
              noBrand: importScope(viewer) === null,
            },
          }
        : null,
    preview: null,
    outcomes: {
      page,
      pageCount: Math.max(1, Math.ceil(outcomes.total / PREVIEW_PAGE_ROWS)),
      rows: outcomes.rows
        .filter((row) => row.outcome !== null)
        .map((row) => {
          const values = rowValues(row.cells, settings.mapping, settings.merges);
          return {
            rowNumber: row.rowNumber,
            name: [values.firstName, values.lastName]
              .map((part) => part?.trim() ?? "")
              .filter(Boolean)
              .join(" "),
            email: values.email?.trim() ?? "",
            fields: shownFields(values),
            outcome: row.outcome,
            detail: row.detail ?? "",
          };
        }),
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = requireAction(context.get(viewerContext), "create:profile");
  const form = await readForm(request);
  const intent = form.get("intent");
  const here = `/admin/import/${params.id}`;
  try {
    const record = await getImport(viewer, params.id);
    switch (intent) {
      case "preview":
      case "start": {
        await saveImportSettings(viewer, record.id, importChoices(form, record.headers.length));
        if (intent === "preview") return redirect(here);
        await queueImport(viewer, record.id);
        wakeImportWorker();
        // The page shows the progress, and says when it has finished (`?started`).
        return redirect(`${here}?started`);
      }
      case "retry":
        await queueImport(viewer, record.id);
        wakeImportWorker();
        return redirect(`${here}?started`);
      case "invite-new": {
        const queued = await inviteNewPeopleOfImport(viewer, record.id);
        return redirectWithToast(here, {
          text:
            queued === 0
              ? "Everyone this import made was invited already."
              : `Invitations on their way to ${queued === 1 ? "1 person" : `${queued.toLocaleString("en-US")} people`}.`,
        });
      }
      case "discard":
        await discardImport(viewer, record.id);
        return redirectWithToast("/admin/import", { text: `"${record.fileName}" was removed.` });
      default:
        return failure(400, { formError: "Choose what to do with this import." });
    }
  } catch (error) {
    return failureFrom(error, { notFound: "This import no longer exists." });
  }
}

/**
 * The mapping form: `column.N` names the field of column N ("" for none),
 * `overwrite` the ticked fields, `createBrands` the option, `brandId` the brand of
 * every row ("" for each row's own). A value that is
 * not text (a file) reads as null; the domain checks the choices.
 */
function importChoices(form: FormData, columns: number): ImportChoices {
  const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : null);
  return {
    columns: Array.from({ length: columns }, (_, index) => text(form.get(`column.${index}`))),
    overwrite: form.getAll("overwrite").map(text),
    createBrands: form.get("createBrands") === "on",
    brandId: text(form.get("brandId")),
    merges: mergeChoices(form, text),
  };
}

/** The value boxes (`mergeTo.office.2`), as many as the page can list. */
function mergeChoices(form: FormData, text: (value: FormDataEntryValue | null) => string | null) {
  const boxes: Record<string, string | null> = {};
  let count = 0;
  for (const [name, value] of form) {
    if (!name.startsWith("mergeTo.") || count++ >= MERGEABLE_FIELDS.length * MAX_LISTED_VALUES) continue;
    boxes[name] = text(value);
  }
  return boxes;
}

const OUTCOME_STYLE = {
  create: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  created: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  update: "bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200",
  updated: "bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200",
  unchanged: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
  skip: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  skipped: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  error: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
} as const;

const DOT_STYLE = {
  create: "bg-emerald-500",
  created: "bg-emerald-500",
  update: "bg-blue-500",
  updated: "bg-blue-500",
  unchanged: "bg-slate-400",
  skip: "bg-amber-500",
  skipped: "bg-amber-500",
  error: "bg-red-500",
} as const;

const OUTCOME_TEXT = {
  create: "New card",
  created: "New card",
  update: "Update",
  updated: "Updated",
  unchanged: "Unchanged",
  skip: "Skipped",
  skipped: "Skipped",
  error: "Error",
} as const;

const POLL_MS = 1_000;

export default function ImportDetail({ loaderData: data, actionData }: Route.ComponentProps) {
  const working = data.status === "queued" || data.status === "running";
  const revalidator = useRevalidator();
  // Progress updates live: the page reloads its data every second while the import works.
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [working, revalidator]);

  return (
    <div className="max-w-5xl">
      {working ? (
        // Without JavaScript the page reloads itself while the import works.
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
      ) : null}
      <Link
        to="/admin/import"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-brand-ink hover:underline"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to imports
      </Link>
      <PageHeader
        title="Import profiles"
        description={`${data.fileName} · ${data.totalRows.toLocaleString("en-US")} ${data.totalRows === 1 ? "row" : "rows"}`}
      />
      {data.status === "draft" && data.preview ? (
        <DraftView data={data as DraftData} failure={actionData} />
      ) : (
        <ProgressView data={data} failure={actionData} />
      )}
    </div>
  );
}

type Data = Route.ComponentProps["loaderData"];
type DraftData = Data & { preview: NonNullable<Data["preview"]> };

function Section({ title, step, children }: { title: string; step: number; children: React.ReactNode }) {
  return (
    <section
      aria-labelledby={`step-${step}`}
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={`step-${step}`} className="text-lg font-semibold">
        <span className="mr-2 text-slate-500 dark:text-slate-400">{step}.</span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function DraftView({ data, failure }: { data: DraftData; failure: Route.ComponentProps["actionData"] }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const intent = navigation.formData?.get("intent");
  const { counts } = data.preview;
  const importable = counts.create + counts.update;
  const errors = failure?.fieldErrors;
  // Columns matched to a field first; the others folded away, open when one of them was refused.
  const columns = data.headers.map((header, index) => ({ header, index }));
  const matched = columns.filter(({ index }) => data.settings.mapping[index]);
  const unmatched = columns.filter(({ index }) => !data.settings.mapping[index]);
  const unmatchedOpen = unmatched.some(({ index }) => errors?.[`column.${index}`]?.length);
  return (
    <div className="space-y-6">
      <Form method="post" noValidate className="space-y-6">
        <FormAlert failure={failure} nothingDone="Nothing was imported." />
        <Section step={1} title="Match the columns">
          {data.format ? (
            <Alert tone="info">
              Looks like {data.format}: its columns are matched as that tool writes them.
              {data.settings.disabled ? " People whose account is disabled there are not imported." : ""}
            </Alert>
          ) : null}
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Each column of the file fills the card field chosen beside it. Recognised headers are chosen already; rows
            are matched to existing cards by their email.
          </p>
          <ColumnList data={data} errors={errors} columns={matched} />
          {unmatched.length > 0 ? (
            <details className="group rounded-lg border border-slate-200 dark:border-slate-800" open={unmatchedOpen}>
              <summary className="cursor-pointer px-4 py-3 text-sm font-medium text-slate-700 select-none dark:text-slate-300">
                {unmatched.length === 1 ? "1 column is" : `${unmatched.length.toLocaleString("en-US")} columns are`} not
                imported
              </summary>
              <div className="border-t border-slate-200 px-4 dark:border-slate-800">
                <ColumnList data={data} errors={errors} columns={unmatched} />
              </div>
            </details>
          ) : null}
          <div>
            <label htmlFor="field-brandId" className="block font-medium">
              Brand
            </label>
            <p id="brandId-hint" className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              Put every row into one brand, or let each row say: its brand column (a unit path such as “/Aurora
              Foods/Sales” takes the brand it names), else the brand of its address's domain.
            </p>
            <select
              id="field-brandId"
              name="brandId"
              defaultValue={data.settings.brandId === null ? "" : String(data.settings.brandId)}
              aria-describedby={errors?.brandId ? "brandId-hint field-brandId-error" : "brandId-hint"}
              aria-invalid={errors?.brandId ? true : undefined}
              className="mt-2 h-10 w-full max-w-sm rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-900"
            >
              <option value="">As each row says</option>
              {data.brands.map((brand) => (
                <option key={brand.id} value={brand.id}>
                  Every row into {brand.name}
                </option>
              ))}
            </select>
            <ErrorList id="field-brandId-error" errors={errors?.brandId} />
          </div>
          <ImportValues listed={data.preview.values} errors={errors} />
        </Section>
        <Section step={2} title="Cards that already exist">
          <fieldset>
            <legend className="font-medium">Fields to overwrite on existing cards</legend>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              A card whose email is in the file keeps its own fields, filled in by its owner or an administrator, unless
              you tick them here. Empty cells never clear a field, and a card's username is never changed.
            </p>
            <div className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
              {OVERWRITABLE_FIELDS.map((field) => (
                <label key={field} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="overwrite"
                    value={field}
                    defaultChecked={data.settings.overwrite.includes(field)}
                    className="size-4 rounded border-slate-300 accent-brand-solid"
                  />
                  {importFieldLabel(field)}
                </label>
              ))}
            </div>
            <ErrorList id="field-overwrite-error" errors={errors?.overwrite} />
          </fieldset>
          {data.siteWide ? (
            <label className="flex items-start gap-2 border-t border-slate-200 pt-4 text-sm dark:border-slate-800">
              <input
                type="checkbox"
                name="createBrands"
                defaultChecked={data.settings.createBrands}
                className="mt-0.5 size-4 rounded border-slate-300 accent-brand-solid"
              />
              <span>
                <span className="font-medium">Create brands that do not exist yet</span>
                <span className="block text-slate-500 dark:text-slate-400">
                  Otherwise a row whose company is not in Brand Management is not imported. Names are matched without
                  regard to letter case.
                </span>
              </span>
            </label>
          ) : null}
        </Section>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button type="submit" name="intent" value="preview" variant="secondary" disabled={busy}>
            {busy && intent === "preview" ? "Updating..." : "Update preview"}
          </Button>
          <Button type="submit" name="intent" value="start" disabled={busy || importable === 0}>
            <Play aria-hidden className="size-4" />
            {busy && intent === "start"
              ? "Starting..."
              : `Import ${importable.toLocaleString("en-US")} ${importable === 1 ? "row" : "rows"}`}
          </Button>
        </div>
      </Form>
      <Section step={3} title="Preview">
        <Counts
          items={[
            ["New cards", counts.create, "create"],
            ["Updates", counts.update, "update"],
            ["Unchanged", counts.unchanged, "unchanged"],
            ["Skipped", counts.skip, "skip"],
            ["Errors", counts.error, "error"],
          ]}
        />
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Change the columns or the options above, then choose "Update preview" to see what the import will do.
        </p>
        <RowFilter
          errorsOnly={data.errorsOnly}
          errorCount={counts.error}
          reportHref={`/admin/import/${data.id}/report.csv`}
        />
        <RowList rows={data.preview.rows} />
        <Pagination page={data.preview.page} pageCount={data.preview.pageCount} />
      </Section>
      <Form method="post" className="flex justify-end">
        <Button type="submit" name="intent" value="discard" variant="destructive-ghost" size="sm">
          <Trash2 aria-hidden className="size-4" />
          Discard this file
        </Button>
      </Form>
    </div>
  );
}

function ProgressView({ data, failure }: { data: Data; failure: Route.ComponentProps["actionData"] }) {
  const navigation = useNavigation();
  const inviting = navigation.state !== "idle" && navigation.formData?.get("intent") === "invite-new";
  const percent = data.totalRows ? Math.round((data.processedRows / data.totalRows) * 100) : 100;
  const interrupted = data.status === "interrupted" || data.stale;
  const heading =
    data.status === "done"
      ? "Import finished"
      : interrupted
        ? "Import interrupted"
        : data.waitingForSpace
          ? "Paused: the server's disk is full"
          : data.status === "queued"
            ? "Waiting to start..."
            : "Importing...";
  return (
    <div className="space-y-6">
      <FormAlert failure={failure} nothingDone="" />
      {data.finished ? <Alert tone="success">{data.finished}</Alert> : null}
      <section
        aria-labelledby="progress-title"
        className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="progress-title" className="text-lg font-semibold">
            {heading}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
            {data.processedRows.toLocaleString("en-US")} of {data.totalRows.toLocaleString("en-US")} rows
          </p>
        </div>
        <div
          role="progressbar"
          aria-labelledby="progress-title"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-3 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
        >
          <div
            className={cn("h-full rounded-full transition-all", interrupted ? "bg-amber-500" : "bg-brand-solid")}
            style={{ width: `${percent}%` }}
          />
        </div>
        <Counts
          items={[
            ["New cards", data.counts.created, "created"],
            ["Updated", data.counts.updated, "updated"],
            ["Unchanged", data.counts.unchanged, "unchanged"],
            ["Skipped", data.counts.skipped, "skipped"],
            ["Not imported", data.counts.failed, "error"],
          ]}
        />
        {data.waitingForSpace ? (
          <Alert tone="warning">
            <p>
              Rows already imported stay imported. The import goes on by itself once space is freed on the server's
              disk.
            </p>
          </Alert>
        ) : null}
        {interrupted ? (
          <Alert tone="error">
            <p>
              {data.error ??
                "The server stopped during this import. Rows already imported stay imported; running it again goes on from the next row."}
            </p>
            <Form method="post" className="mt-3">
              <Button type="submit" name="intent" value="retry" size="sm">
                <RotateCcw aria-hidden className="size-4" />
                Run it again
              </Button>
            </Form>
          </Alert>
        ) : null}
        {data.status === "done" ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Every card made or changed is in the directory now. Importing the same file again changes nothing.
          </p>
        ) : null}
        {data.newPeople && data.newPeople.count > 0 ? (
          <div className="flex flex-col gap-3 border-t border-slate-200 pt-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {data.newPeople.count === 1
                ? "1 new person has not been invited yet."
                : `${data.newPeople.count.toLocaleString("en-US")} new people have not been invited yet.`}{" "}
              An invitation lets them claim their card.
            </p>
            <ConfirmedSend
              fields={{ intent: "invite-new" }}
              label={
                data.newPeople.count === 1
                  ? "Invite the new person"
                  : `Invite the ${data.newPeople.count.toLocaleString("en-US")} new people`
              }
              busy={inviting}
              recipients={data.newPeople}
              preview={data.newPeople.preview}
              returnTo={`/admin/import/${data.id}`}
              variant="primary"
            />
          </div>
        ) : null}
      </section>
      {data.outcomes && data.processedRows > 0 ? (
        <section
          aria-labelledby="rows-title"
          className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
        >
          <h2 id="rows-title" className="text-lg font-semibold">
            Rows
          </h2>
          <RowFilter
            errorsOnly={data.errorsOnly}
            errorCount={data.counts.failed}
            reportHref={`/admin/import/${data.id}/report.csv`}
          />
          <RowList rows={data.outcomes.rows} />
          <Pagination page={data.outcomes.page} pageCount={data.outcomes.pageCount} />
        </section>
      ) : null}
    </div>
  );
}

/** The rows by outcome; skipped rows only when there are some, as most files have none. */
function Counts({ items }: { items: [string, number, keyof typeof OUTCOME_STYLE][] }) {
  const shown = items.filter(([, value, style]) => value > 0 || !(style === "skip" || style === "skipped"));
  return (
    <dl className={cn("grid grid-cols-2 gap-3", shown.length > 4 ? "sm:grid-cols-5" : "sm:grid-cols-4")}>
      {shown.map(([label, value, style]) => (
        <div key={label} className="rounded-xl border border-slate-200 p-3 dark:border-slate-800">
          <dt className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
            <span aria-hidden className={cn("size-2.5 rounded-full", DOT_STYLE[style])} />
            {label}
          </dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums">{value.toLocaleString("en-US")}</dd>
        </div>
      ))}
    </dl>
  );
}

function RowFilter({
  errorsOnly,
  errorCount,
  reportHref,
}: {
  errorsOnly: boolean;
  errorCount: number;
  reportHref: string;
}) {
  const tab = (active: boolean) =>
    cn(
      "rounded-full px-3 py-1 text-sm font-medium",
      active
        ? "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900"
        : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800",
    );
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <nav aria-label="Rows to show" className="flex gap-1">
        <Link to="?" className={tab(!errorsOnly)} aria-current={errorsOnly ? undefined : "page"}>
          All rows
        </Link>
        <Link to="?show=errors" className={tab(errorsOnly)} aria-current={errorsOnly ? "page" : undefined}>
          Errors ({errorCount.toLocaleString("en-US")})
        </Link>
      </nav>
      {errorCount > 0 ? (
        <a href={reportHref} download className={buttonClasses("secondary", "sm")}>
          <Download aria-hidden className="size-4" />
          Download the report of rows not imported
        </a>
      ) : null}
    </div>
  );
}

type ListedRow = {
  rowNumber: number;
  name?: string;
  email?: string;
  fields?: { label: string; value: string }[];
  outcome: keyof typeof OUTCOME_STYLE | null;
  detail: string;
};

function RowList({ rows }: { rows: ListedRow[] }) {
  if (rows.length === 0) {
    return <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">No rows to show.</p>;
  }
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Rows of the file">
      {rows.map((row) => (
        <li
          key={row.rowNumber}
          className="flex flex-col gap-1 py-3 sm:flex-row sm:items-start sm:gap-4"
          data-row={row.rowNumber}
        >
          <div className="flex shrink-0 items-center gap-2 sm:w-40">
            <span className="w-16 text-sm text-slate-500 tabular-nums dark:text-slate-400">Row {row.rowNumber}</span>
            {row.outcome ? (
              <span className={cn("rounded-full px-2 py-0.5 text-xs font-semibold", OUTCOME_STYLE[row.outcome])}>
                {OUTCOME_TEXT[row.outcome]}
              </span>
            ) : null}
          </div>
          <div className="min-w-0 flex-1">
            {row.name || row.email ? (
              <p className="truncate text-sm">
                <span className="font-medium">{row.name || "—"}</span>
                {row.email ? <span className="text-slate-500 dark:text-slate-400"> · {row.email}</span> : null}
              </p>
            ) : null}
            {row.fields?.length ? (
              <dl className="mt-0.5 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600 dark:text-slate-400">
                {row.fields.map((field) => (
                  <div key={field.label} className="flex min-w-0 gap-1">
                    <dt className="shrink-0 text-slate-500 dark:text-slate-400">{field.label}:</dt>
                    <dd className="min-w-0 break-words text-slate-800 dark:text-slate-200">{field.value}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
            {row.detail ? (
              <p
                className={cn(
                  "text-sm",
                  row.outcome === "error" ? "text-red-700 dark:text-red-300" : "text-slate-600 dark:text-slate-400",
                )}
              >
                {row.detail}
              </p>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Each column of the file with its header, an example and the field it fills. */
function ColumnList({
  data,
  errors,
  columns,
}: {
  data: Data;
  errors: Record<string, string[] | undefined> | undefined;
  columns: { header: string; index: number }[];
}) {
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800">
      {columns.map(({ header, index }) => {
        const name = `column.${index}`;
        const fieldErrors = errors?.[name];
        return (
          <li key={name} className="grid gap-2 py-3 sm:grid-cols-[1fr_16rem] sm:items-center sm:gap-4">
            <div className="min-w-0">
              <label htmlFor={`field-${name}`} className="block truncate font-medium">
                {header || `Column ${index + 1}`}
              </label>
              <p className="truncate text-sm text-slate-500 dark:text-slate-400">
                {data.examples[index] ? `e.g. ${data.examples[index]}` : "Empty in the first rows"}
              </p>
            </div>
            <div>
              <select
                id={`field-${name}`}
                name={name}
                defaultValue={data.settings.mapping[index] ?? ""}
                aria-invalid={fieldErrors?.length ? true : undefined}
                aria-describedby={fieldErrors?.length ? `field-${name}-error` : undefined}
                className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
              >
                <option value="">Do not import</option>
                {IMPORT_FIELDS.map((field) => (
                  <option key={field.key} value={field.key}>
                    {field.label}
                  </option>
                ))}
              </select>
              <ErrorList id={`field-${name}-error`} errors={fieldErrors} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
