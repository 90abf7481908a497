import { LayoutGrid, List, SearchX } from "lucide-react";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { parseQuery } from "~/.server/http/responses";
import {
  directoryBrandOptions,
  directoryFacets,
  parseDirectoryQuery,
  searchDirectory,
} from "~/.server/profiles/directory";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { Pagination } from "~/components/pagination";
import { ProfileGridCard, ProfileListRow } from "~/components/profile-card";
import { BRAND_OPTIONS, FilterSelect, SearchBox, STATUS_OPTIONS, useLiveSearch } from "~/components/search-form";
import { Spinner } from "~/components/ui/spinner";
import { cn } from "~/lib/cn";
import { can } from "~/lib/permissions";
import type { LiveHandle } from "~/lib/realtime";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/directory";

const VIEW_COOKIE = "directory_view";

export const meta: Route.MetaFunction = () => [{ title: "Directory" }];

function viewFrom(request: Request): "grid" | "list" {
  const cookie = request.headers.get("cookie") ?? "";
  return new RegExp(`(?:^|;\\s*)${VIEW_COOKIE}=list`).test(cookie) ? "list" : "grid";
}

/** The directory refreshes for a view only when it shows that card's count. */
export const handle: LiveHandle = {
  live: (event, data) => {
    const shown = (data as { entries?: { id: string }[] } | undefined)?.entries ?? [];
    return event.kind !== "view" || shown.some((entry) => entry.id === event.id);
  },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const canSeeClaims = can(viewer.role, "read:claim-status:any");
  const query = parseQuery(() => parseDirectoryQuery(new URL(request.url), { canFilterStatus: canSeeClaims }));
  const [result, brands, facets] = await Promise.all([
    searchDirectory(query, { includeClaimStatus: canSeeClaims, viewer }),
    directoryBrandOptions(),
    directoryFacets(query),
  ]);
  return { ...result, query, brands, facets, canSeeClaims, view: viewFrom(request) };
}

/** A facet's choice with how many people it has among those found. */
function withCount(label: string, count = 0) {
  return `${label} (${count.toLocaleString("en")})`;
}

function facetOptions(all: string, facet: { value: string; label: string; count: number }[]) {
  return [
    { value: "", label: all },
    ...facet.map((row) => ({ value: row.value, label: withCount(row.label, row.count) })),
  ];
}

export default function Directory({ loaderData }: Route.ComponentProps) {
  const { entries, total, page, pageCount, query, brands, facets, canSeeClaims } = loaderData;
  const brandCounts = new Map(facets.brand.map((facet) => [facet.value, facet.count]));
  const navigation = useNavigation();
  const [view, setView] = useState(loaderData.view);
  const searching = navigation.state === "loading" && navigation.location.pathname === "/directory";

  const search = useLiveSearch("/directory", {
    q: query.q,
    brand: query.brand ? String(query.brand) : "",
    department: query.department ?? "",
    office: query.office ?? "",
    status: query.status,
  });

  function chooseView(next: "grid" | "list") {
    setView(next);
    // The loader reads this cookie to render the chosen layout on the server; the
    // Cookie Store API that the rule prefers is not in every browser yet.
    // biome-ignore lint/suspicious/noDocumentCookie: a plain preference cookie, set where every browser can
    document.cookie = `${VIEW_COOKIE}=${next}; Path=/; Max-Age=31536000; SameSite=Lax`;
  }

  return (
    <div>
      <PageHeader title="Directory" description="Find and connect with your colleagues across all brands." />

      <Form
        ref={search.ref}
        method="get"
        role="search"
        aria-label="Search the directory"
        className={cn(
          "mb-6 grid grid-cols-1 gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 dark:border-slate-800 dark:bg-slate-900",
          canSeeClaims
            ? "lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_auto]"
            : "lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto]",
        )}
        onChange={search.onChange}
        onSubmit={search.onSubmit}
      >
        <div className="sm:col-span-2 lg:col-span-1">
          <SearchBox
            id="directory-q"
            label="Search"
            placeholder="Search by name, email, username, or bio..."
            defaultValue={query.q}
          />
        </div>
        <FilterSelect
          id="directory-brand"
          label="Brand"
          name="brand"
          defaultValue={query.brand ? String(query.brand) : ""}
          options={BRAND_OPTIONS(brands).map((option) =>
            option.value
              ? { ...option, label: withCount(option.label, brandCounts.get(Number(option.value))) }
              : option,
          )}
        />
        <FilterSelect
          id="directory-department"
          label="Department"
          name="department"
          defaultValue={query.department ?? ""}
          options={facetOptions("All Departments", facets.department)}
        />
        <FilterSelect
          id="directory-office"
          label="Office"
          name="office"
          defaultValue={query.office ?? ""}
          options={facetOptions("All Offices", facets.office)}
        />
        {canSeeClaims ? (
          <FilterSelect
            id="directory-status"
            label="Status"
            name="status"
            defaultValue={query.status}
            options={STATUS_OPTIONS}
          />
        ) : null}
        <button
          type="submit"
          className="h-10 rounded-lg bg-brand-solid px-4 text-sm font-medium text-brand-on-solid hover:brightness-110"
        >
          Search
        </button>
      </Form>

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-4">
          <h2 className="text-sm font-semibold text-slate-700 dark:text-slate-300" aria-live="polite">
            {total.toLocaleString("en")} {total === 1 ? "Profile" : "Profiles"}
          </h2>
          {searching ? <Spinner label="Searching..." className="size-4" /> : null}
          {canSeeClaims ? (
            <ul aria-label="Legend" className="flex items-center gap-3 text-xs text-slate-600 dark:text-slate-400">
              <li className="flex items-center gap-1.5">
                <span aria-hidden className="size-2.5 rounded-full bg-emerald-500" /> Claimed
              </li>
              <li className="flex items-center gap-1.5">
                <span aria-hidden className="size-2.5 rounded-full bg-orange-500" /> Unclaimed
              </li>
            </ul>
          ) : null}
        </div>
        <fieldset
          aria-label="Layout"
          className="inline-flex rounded-lg border border-slate-200 bg-white p-0.5 dark:border-slate-700 dark:bg-slate-900"
        >
          {(
            [
              ["grid", "Grid view", LayoutGrid],
              ["list", "List view", List],
            ] as const
          ).map(([value, label, Icon]) => (
            <button
              key={value}
              type="button"
              aria-pressed={view === value}
              aria-label={label}
              onClick={() => chooseView(value)}
              className={cn(
                "inline-flex size-8 items-center justify-center rounded-md",
                view === value
                  ? "bg-brand/10 text-brand-ink"
                  : "text-slate-500 hover:text-slate-800 dark:hover:text-white",
              )}
            >
              <Icon aria-hidden className="size-4" />
            </button>
          ))}
        </fieldset>
      </div>

      <div className={cn("transition-opacity", searching && "opacity-60")}>
        {entries.length === 0 ? (
          <EmptyState Icon={SearchX} title="No profiles found" text="Try adjusting your search or filter criteria." />
        ) : view === "grid" ? (
          <ul className="grid grid-cols-1 gap-4 max-sm:gap-2 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">
            {entries.map((person) => (
              <li key={person.id}>
                <ProfileGridCard person={person} />
              </li>
            ))}
          </ul>
        ) : (
          <ul className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
            {entries.map((person) => (
              <ProfileListRow key={person.id} person={person} />
            ))}
          </ul>
        )}
      </div>

      <Pagination page={page} pageCount={pageCount} className="mt-8" />
    </div>
  );
}
