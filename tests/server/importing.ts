import { expect } from "vitest";
import { runPendingImports } from "~/.server/imports/run";
import { action as uploadAction } from "~/routes/admin/import";
import { action as detailAction, loader as detailLoader } from "~/routes/admin/import-detail";
import { type createMember, formRequest, getRequest, multipartRequest, present, run } from "./helpers";

/** Importing a file as an administrator does on the import pages: upload, choose, preview, start. */

type Admin = Awaited<ReturnType<typeof createMember>>;

/** Uploads `text` as a CSV file through the upload form; returns the import's id. */
export async function upload(who: Admin, text: string, name = "people.csv") {
  const form = new FormData();
  form.set("file", new File([text], name, { type: "text/csv" }));
  const result = await run(uploadAction, await multipartRequest("/admin/import", form), {}, who.viewer);
  expect(result.status, JSON.stringify(result.data)).toBe(302);
  return present(/\/admin\/import\/([0-9a-f-]{36})$/.exec(result.location ?? "")?.[1], "the import's address");
}

export type Preview = {
  preview: {
    values: {
      field: string;
      label: string;
      values: { value: string; rows: number; importedAs: string }[];
      more: number;
    }[];
    counts: Record<string, number>;
    rows: { rowNumber: number; outcome: string; detail: string; fields: { label: string; value: string }[] }[];
  };
  settings: { mapping: string[] };
  status: string;
  format: string | null;
};

export async function preview(who: Admin, id: string, query = "") {
  const result = await run(detailLoader, getRequest(`/admin/import/${id}${query}`), { id }, who.viewer);
  return result.data as Preview;
}

/** Posts the mapping form as the page sends it (the guessed mapping unless `mapping` says otherwise). */
export async function submit(
  who: Admin,
  id: string,
  intent: "preview" | "start" | "retry",
  options: {
    mapping?: string[];
    overwrite?: string[];
    createBrands?: boolean;
    brandId?: number;
    /** What each listed value is imported as, by "field:value" (the others as the page shows them). */
    merges?: Record<string, string>;
  } = {},
) {
  const current = await preview(who, id);
  const body = new URLSearchParams({ intent });
  for (const [index, field] of (options.mapping ?? current.settings.mapping).entries())
    body.set(`column.${index}`, field);
  for (const field of options.overwrite ?? []) body.append("overwrite", field);
  if (options.createBrands) body.set("createBrands", "on");
  if (options.brandId !== undefined) body.set("brandId", String(options.brandId));
  // The value boxes, named by field and place in the list as the page names them.
  for (const { field, values } of current.preview?.values ?? []) {
    values.forEach(({ value, importedAs }, position) => {
      body.set(`mergeTo.${field}.${position}`, options.merges?.[`${field}:${value}`] ?? importedAs);
    });
  }
  const request = formRequest(`/admin/import/${id}`, {});
  return run(
    detailAction,
    new Request(request.url, { method: "POST", headers: request.headers, body }),
    { id },
    who.viewer,
  );
}

export async function importFile(who: Admin, text: string, options: Parameters<typeof submit>[3] = {}) {
  const id = await upload(who, text);
  expect((await submit(who, id, "start", options)).status).toBe(302);
  await runPendingImports();
  return id;
}
