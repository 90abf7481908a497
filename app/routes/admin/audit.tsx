import { Download, ScrollText } from "lucide-react";
import { Form, Link, useLocation } from "react-router";
import { reachOf } from "~/.server/access/scope";
import { auditActors, entriesWithin, listAuditEntries, parseAuditQuery } from "~/.server/audit/list";
import { CONNECTION_PREFIX } from "~/.server/audit/record";
import { listBrandsWithUsage } from "~/.server/brands/list-brands";
import { requireAction } from "~/.server/http/authz";
import { parseQuery } from "~/.server/http/responses";
import { EmptyState } from "~/components/empty-state";
import { LocalTime } from "~/components/local-time";
import { PageHeader } from "~/components/page-header";
import { Pagination } from "~/components/pagination";
import { FilterSelect, SearchBox, useLiveSearch } from "~/components/search-form";
import { Button, buttonClasses } from "~/components/ui/button";
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_TARGET_LABELS,
  type AuditTargetKind,
  describeChange,
  isAuditAction,
} from "~/lib/audit";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/audit";

export const meta: Route.MetaFunction = () => [{ title: "Audit Log" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireAction(context.get(viewerContext), "read:audit");
  const within = entriesWithin(viewer);
  const query = parseQuery(() => parseAuditQuery(new URL(request.url)));
  // Another brand than theirs is not found for a brand administrator.
  if (query.brand !== null) requireAction(viewer, "read:audit", { brandId: query.brand });
  const [list, actors, brands] = await Promise.all([
    listAuditEntries(within, query),
    auditActors(within),
    listBrandsWithUsage(reachOf(viewer)),
  ]);
  return {
    query,
    actors,
    brands: brands.map(({ id, name }) => ({ id, name })),
    shown: list.shown,
    page: list.page,
    pageCount: list.pageCount,
    entries: list.rows.map((row) => ({
      ...shownEntry(row),
      // A bulk action's other cards, under its first.
      more: row.more.map(shownEntry),
    })),
  };
}

type StoredEntry = Omit<Awaited<ReturnType<typeof listAuditEntries>>["rows"][number]["more"][number], "batchId">;

/** An entry as the page reads it: names and sentences, never ids. */
function shownEntry(row: StoredEntry) {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    // A provisioning connection has no address: the second line says what it is.
    actor: {
      name: row.actorName,
      email: row.actorEmail.startsWith(CONNECTION_PREFIX) ? "Provisioning (SCIM)" : row.actorEmail,
    },
    action: isAuditAction(row.action) ? AUDIT_ACTION_LABELS[row.action] : row.action,
    target: {
      kind: AUDIT_TARGET_LABELS[row.targetKind as AuditTargetKind] ?? row.targetKind,
      label: row.targetLabel,
    },
    changes: Object.entries(row.changes).map(([field, change]) => describeChange(field, change)),
  };
}

const FIELD =
  "block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-950";
const LABEL = "mb-1 block text-xs font-medium text-slate-600 dark:text-slate-400";

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { query, actors, brands, entries, shown, page, pageCount } = loaderData;
  const location = useLocation();
  const search = useLiveSearch("/admin/audit", {
    q: query.q,
    action: query.action ?? "",
    actor: query.actor,
    brand: query.brand === null ? "" : String(query.brand),
    from: query.from,
    to: query.to,
  });
  const filtered =
    query.q !== "" ||
    query.action !== null ||
    query.actor !== "" ||
    query.brand !== null ||
    query.from !== "" ||
    query.to !== "";
  const exportQuery = new URLSearchParams(location.search);
  exportQuery.delete("page");
  const exportHref = `/admin/export/audit.csv${exportQuery.size ? `?${exportQuery}` : ""}`;
  return (
    <div>
      <PageHeader
        title="Audit Log"
        description="Every change an administrator made: who, what, when, and the fields that changed."
        actions={
          <a href={exportHref} download className={buttonClasses("primary")}>
            <Download aria-hidden className="size-4" />
            Export CSV
          </a>
        }
      />

      <Form
        method="get"
        action="/admin/audit"
        role="search"
        aria-label="Filter the audit log"
        className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,1fr)_auto_auto_auto_auto_auto_auto] lg:items-end"
        ref={search.ref}
        onChange={search.onChange}
        onSubmit={search.onSubmit}
      >
        <div className="sm:col-span-2 lg:col-span-1">
          <span aria-hidden className={LABEL}>
            Target
          </span>
          <SearchBox
            id="audit-q"
            label="Search by target"
            placeholder="Search by name, username or brand..."
            defaultValue={query.q}
          />
        </div>
        <div className="[&_select]:w-full">
          <span aria-hidden className={LABEL}>
            Action
          </span>
          <FilterSelect
            id="audit-action"
            label="Action"
            name="action"
            defaultValue={query.action ?? ""}
            options={[
              { value: "", label: "All actions" },
              ...AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_LABELS[action] })),
            ]}
          />
        </div>
        <div className="[&_select]:w-full">
          <span aria-hidden className={LABEL}>
            Administrator
          </span>
          <FilterSelect
            id="audit-actor"
            label="Administrator"
            name="actor"
            defaultValue={query.actor}
            options={[
              { value: "", label: "All administrators" },
              ...actors.map((actor) => ({ value: actor.email, label: actor.name || actor.email })),
            ]}
          />
        </div>
        {brands.length > 1 ? (
          <div className="[&_select]:w-full">
            <span aria-hidden className={LABEL}>
              Brand
            </span>
            <FilterSelect
              id="audit-brand"
              label="Brand"
              name="brand"
              defaultValue={query.brand === null ? "" : String(query.brand)}
              options={[
                { value: "", label: "All brands" },
                ...brands.map((brand) => ({ value: String(brand.id), label: brand.name })),
              ]}
            />
          </div>
        ) : null}
        <div>
          <label htmlFor="audit-from" className={LABEL}>
            From
          </label>
          <input id="audit-from" type="date" name="from" defaultValue={query.from} className={FIELD} />
        </div>
        <div>
          <label htmlFor="audit-to" className={LABEL}>
            To
          </label>
          <input id="audit-to" type="date" name="to" defaultValue={query.to} className={FIELD} />
        </div>
        <div className="flex gap-2">
          <Button type="submit" variant="secondary">
            Filter
          </Button>
          {filtered ? (
            <Link to="/admin/audit" className={buttonClasses("ghost")}>
              Clear
            </Link>
          ) : null}
        </div>
      </Form>

      <p className="mb-3 text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
        {shown.toLocaleString("en")} {shown === 1 ? "entry" : "entries"}
      </p>

      {entries.length === 0 ? (
        <EmptyState
          Icon={ScrollText}
          title="No entries found"
          text={
            filtered
              ? "No administrator action matches these filters. Try widening them."
              : "What administrators change (cards, brands, settings) will be listed here."
          }
        />
      ) : (
        <ol className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
          {entries.map((entry) => (
            <li
              key={entry.id}
              className="grid gap-2 p-4 md:grid-cols-[11rem_minmax(0,14rem)_minmax(0,1fr)] md:gap-6"
              data-testid="audit-entry"
            >
              <LocalTime at={entry.at} className="text-sm text-slate-500 tabular-nums dark:text-slate-400" />
              <div className="min-w-0 text-sm">
                <p className="font-medium wrap-anywhere">{entry.actor.name || entry.actor.email}</p>
                <p className="text-slate-500 wrap-anywhere dark:text-slate-400">{entry.actor.email}</p>
              </div>
              <div className="min-w-0 text-sm">
                <p className="wrap-anywhere">
                  <span className="font-semibold">{entry.action}</span>{" "}
                  <span className="text-slate-500 dark:text-slate-400">{entry.target.kind.toLowerCase()}</span>{" "}
                  <span className="font-medium">{entry.target.label}</span>
                </p>
                <Changes changes={entry.changes} />
                {entry.more.length ? (
                  <details className="mt-2 rounded-lg border border-slate-200 dark:border-slate-700">
                    <summary className="cursor-pointer px-3 py-1.5 font-medium text-slate-700 select-none dark:text-slate-300">
                      and {entry.more.length.toLocaleString("en")} more {entry.more.length === 1 ? "card" : "cards"} in
                      the same action
                    </summary>
                    <ul className="divide-y divide-slate-100 border-t border-slate-200 dark:divide-slate-800 dark:border-slate-700">
                      {entry.more.map((other) => (
                        <li key={other.id} className="px-3 py-2">
                          <p className="font-medium wrap-anywhere">{other.target.label}</p>
                          <Changes changes={other.changes} />
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}

      <Pagination page={page} pageCount={pageCount} path="/admin/audit" className="mt-4" />
    </div>
  );
}

/** What one entry changed, a line a field. */
function Changes({ changes }: { changes: string[] }) {
  if (!changes.length) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-slate-600 dark:text-slate-300">
      {changes.map((change) => (
        <li key={change} className="wrap-anywhere">
          {change}
        </li>
      ))}
    </ul>
  );
}
