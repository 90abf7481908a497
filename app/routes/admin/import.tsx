import { ArrowLeft, Download, FileUp } from "lucide-react";
import { useState } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { requireAction } from "~/.server/http/authz";
import { type BodyHandle, readUploadForm } from "~/.server/http/form-data";
import { failure, failureFrom } from "~/.server/http/responses";
import { createImport, MAX_IMPORT_FORM_BYTES, recentImports } from "~/.server/imports/imports";
import { FormAlert } from "~/components/form-alert";
import { ErrorList } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { PageHeader } from "~/components/page-header";
import { Button, buttonClasses } from "~/components/ui/button";
import { IMPORT_TOO_LARGE, MAX_IMPORT_BYTES } from "~/lib/import";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/import";

/** It takes a CSV file: the server allows such a body (server/routes.ts). */
export const handle: BodyHandle = { bodyLimit: "import" };

export const meta: Route.MetaFunction = () => [{ title: "Import profiles" }];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireAction(context.get(viewerContext), "create:profile");
  const imports = await recentImports(viewer);
  return { imports: imports.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireAction(context.get(viewerContext), "create:profile");
  const { form } = await readUploadForm(request, MAX_IMPORT_FORM_BYTES);
  const file = form?.get("file");
  if (!form || (file instanceof File && file.size > MAX_IMPORT_BYTES)) {
    return failure(413, { fieldErrors: { file: [IMPORT_TOO_LARGE] } });
  }
  if (!(file instanceof File) || file.size === 0) {
    return failure(400, { fieldErrors: { file: ["Choose a CSV file to import"] } });
  }
  try {
    const id = await createImport({
      actor: viewer,
      fileName: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    return redirect(`/admin/import/${id}`);
  } catch (error) {
    return failureFrom(error, { unexpected: "Failed to read the file. Please try again." });
  }
}

const STATUS_TEXT = {
  draft: "Not started",
  queued: "Waiting to start",
  running: "Importing",
  done: "Finished",
  interrupted: "Interrupted",
} as const;

export default function ImportPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const uploading = navigation.state === "submitting";
  const [tooLarge, setTooLarge] = useState(false);
  const errors = tooLarge ? [IMPORT_TOO_LARGE] : actionData?.fieldErrors?.file;
  return (
    <div className="max-w-4xl">
      <Link
        to="/admin/profiles"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-brand-ink hover:underline"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to Profiles
      </Link>
      <PageHeader
        title="Import profiles"
        description="Add or update many cards at once from a spreadsheet saved as CSV."
      />
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
        onSubmit={(event) => {
          if (tooLarge) event.preventDefault();
        }}
      >
        <FormAlert failure={tooLarge ? undefined : actionData} nothingDone="Nothing was imported." />
        <div>
          <label htmlFor="field-file" className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
            CSV file
          </label>
          <input
            id="field-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            aria-invalid={errors?.length ? true : undefined}
            aria-describedby={errors?.length ? "field-file-error field-file-hint" : "field-file-hint"}
            onChange={(event) => setTooLarge((event.currentTarget.files?.[0]?.size ?? 0) > MAX_IMPORT_BYTES)}
            className="block w-full rounded-lg border border-slate-300 bg-white text-sm text-slate-700 file:mr-4 file:h-10 file:border-0 file:border-r file:border-slate-300 file:bg-slate-50 file:px-4 file:font-medium file:text-slate-800 hover:file:bg-slate-100 aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:file:border-slate-700 dark:file:bg-slate-800 dark:file:text-slate-100"
          />
          <p id="field-file-hint" className="mt-1.5 text-sm text-slate-500 dark:text-slate-400">
            One row per person, with a header row. UTF-8, comma or semicolon separated, up to 10 MB, 100,000 people and
            200 columns — as Excel ("CSV UTF-8"), Google Sheets and Numbers export it.
          </p>
          <ErrorList id="field-file-error" errors={errors} />
        </div>
        <div className="flex flex-col-reverse gap-3 border-t border-slate-200 pt-5 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
          <a href="/admin/import/template.csv" download className={buttonClasses("secondary")}>
            <Download aria-hidden className="size-4" />
            Download the template
          </a>
          <Button type="submit" disabled={uploading}>
            <FileUp aria-hidden className="size-4" />
            {uploading ? "Reading the file..." : "Upload and preview"}
          </Button>
        </div>
      </Form>
      <section aria-labelledby="recent-imports" className="mt-10">
        <h2 id="recent-imports" className="mb-3 text-lg font-semibold">
          Recent imports
        </h2>
        {loaderData.imports.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">No file has been imported yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
            {loaderData.imports.map((entry) => (
              <li key={entry.id}>
                <Link
                  to={`/admin/import/${entry.id}`}
                  className="flex flex-col gap-1 px-4 py-3 hover:bg-slate-50 sm:flex-row sm:items-center sm:justify-between dark:hover:bg-slate-800/60"
                >
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{entry.fileName}</span>
                    <span className="text-sm text-slate-500 dark:text-slate-400">
                      <LocalTime at={new Date(entry.createdAt).toISOString()} /> ·{" "}
                      {entry.totalRows.toLocaleString("en-US")} rows
                    </span>
                  </span>
                  <span className="text-sm text-slate-600 dark:text-slate-300">
                    {STATUS_TEXT[entry.status]}
                    {entry.status === "done"
                      ? ` · ${entry.createdCards} new, ${entry.updatedCards} updated${entry.skippedRows ? `, ${entry.skippedRows} skipped` : ""}, ${entry.failedRows} not imported`
                      : ""}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
