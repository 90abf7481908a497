import { expect } from "vitest";
import type { ServerProcess } from "./server-process";

/**
 * A bulk import driven through the running server as an administrator's
 * browser does it: upload the file, choose its columns, start, and read the
 * import's page.
 */
export type ImportAdmin = { server: ServerProcess; cookie: string };

/** Uploads a CSV file; returns the import's page. */
export async function uploadImport({ server, cookie }: ImportAdmin, text: string): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([text], { type: "text/csv" }), "people.csv");
  const uploaded = await fetch(`${server.url}/admin/import`, {
    method: "POST",
    headers: { cookie, origin: server.url },
    body: form,
    redirect: "manual",
  });
  expect(uploaded.status).toBe(302);
  return uploaded.headers.get("location") as string;
}

/** Posts the import's form: `start` with each column's card field (and fields to overwrite), or `retry`. */
export async function postImport(
  { server, cookie }: ImportAdmin,
  location: string,
  intent: "start" | "retry",
  options: { columns?: string[]; overwrite?: string[]; mayBeTakenUp?: boolean } = {},
) {
  const body = new URLSearchParams({ intent });
  for (const [index, field] of (options.columns ?? []).entries()) body.set(`column.${index}`, field);
  for (const field of options.overwrite ?? []) body.append("overwrite", field);
  const response = await fetch(`${server.url}${location}`, {
    method: "POST",
    headers: { cookie, origin: server.url },
    body,
    redirect: "manual",
  });
  if (options.mayBeTakenUp && response.status === 400) return;
  expect(response.status).toBe(302);
}

/** What the import's page says: its text (as read, without React's separators) and whether it ended. */
export async function importPage({ server, cookie }: ImportAdmin, location: string) {
  const page = (await (await fetch(`${server.url}${location}`, { headers: { cookie } })).text()).replaceAll(
    "<!-- -->",
    "",
  );
  const done = Number((/([0-9,]+) of [0-9,]+ rows/.exec(page)?.[1] ?? "0").replace(/,/g, ""));
  return {
    page,
    done,
    finished: page.includes("Import finished"),
    interrupted: page.includes("Import interrupted"),
  };
}
