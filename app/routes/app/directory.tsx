import { LayoutGrid, List, SearchX } from "lucide-react";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { parseQuery } from "~/.server/http/responses";
import {
  directoryBrandOptions,
  directoryFacets,
  directoryLetters,
  parseDirectoryQuery,
  searchDirectory,
} from "~/.server/profiles/directory";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { Pagination } from "~/components/pagination";
import { ProfileGridCard, ProfileListRow } from "~/components/profile-card";
import {
  BRAND_OPTIONS,
  FilterRow,
  FilterSelect,
  SearchBox,
  STATUS_OPTIONS,
  useLiveSearch,
} from "~/components/search-form";
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
  const [result, brands, facets, letters] = await Promise.all([
    searchDirectory(query, { includeClaimStatus: canSeeClaims, viewer }),
    directoryBrandOptions(),
    directoryFacets(query),
    directoryLetters(query),
  ]);
  return { ...result, query, brands, facets, letters, canSeeClaims, view: viewFrom(request) };
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
  const { entries, total, page, pageCount, query, brands, facets, letters, canSeeClaims } = loaderData;
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

  // The first person of each letter on this page is where the A–Z index leads.
  const letterAnchors = new Map<string, string>();
  const anchored = new Set<string>();
  for (const person of entries) {
    const letter = person.firstName.charAt(0).toUpperCase();
    if (anchored.has(letter)) continue;
    anchored.add(letter);
    letterAnchors.set(person.id, `letter-${letter}`);
  }

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
          // On a phone the search and its filters stay in reach under the top bar while the people scroll.
          "mb-6 grid grid-cols-1 gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 dark:border-slate-800 dark:bg-slate-900",
          "max-sm:sticky max-sm:top-16 max-sm:z-20 max-sm:-mx-4 max-sm:gap-2 max-sm:rounded-none max-sm:border-x-0 max-sm:p-3",
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
        <FilterRow className="max-sm:-mx-3 max-sm:px-3">
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
        </FilterRow>
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

      <LetterIndex letters={letters} query={query} />
      <div className={cn("transition-opacity", searching && "opacity-60", letters.length > 0 && "max-sm:pr-2")}>
        {entries.length === 0 ? (
          <EmptyState Icon={SearchX} title="No profiles found" text="Try adjusting your search or filter criteria." />
        ) : view === "grid" ? (
          <ul className="grid grid-cols-1 gap-4 max-sm:gap-2 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">
            {entries.map((person) => (
              <li key={person.id} id={letterAnchors.get(person.id)} className="scroll-mt-52">
                <ProfileGridCard person={person} />
              </li>
            ))}
          </ul>
        ) : (
          <ul className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
            {entries.map((person) => (
              <ProfileListRow key={person.id} person={person} anchor={letterAnchors.get(person.id)} />
            ))}
          </ul>
        )}
      </div>

      <Pagination page={page} pageCount={pageCount} className="mt-8" />
    </div>
  );
}

/**
 * On a phone, an A–Z strip at the screen's edge, as a phone's contacts have:
 * each letter leads to the page and the first person whose first name begins
 * with it; a letter nobody's name begins with is shown faded, not a link.
 */
function LetterIndex({
  letters,
  query,
}: {
  letters: { letter: string; page: number | null }[];
  query: { brand: number | null; department: string | null; office: string | null; status: string };
}) {
  if (letters.length === 0) return null;
  const hrefOf = (letter: string, page: number) => {
    const params = new URLSearchParams();
    if (query.brand) params.set("brand", String(query.brand));
    if (query.department) params.set("department", query.department);
    if (query.office) params.set("office", query.office);
    if (query.status && query.status !== "all") params.set("status", query.status);
    if (page > 1) params.set("page", String(page));
    return `/directory${params.size ? `?${params}` : ""}#letter-${letter}`;
  };
  // Above the search bar that stays under the top bar: before the page scrolls, the bar sits where the first letters are.
  return (
    <nav
      aria-label="Jump to a letter"
      className="fixed top-1/2 right-0 z-30 -translate-y-1/2 rounded-l-lg bg-white/85 py-1 backdrop-blur-sm sm:hidden dark:bg-slate-950/85"
    >
      <ol className="flex flex-col items-center">
        {letters.map(({ letter, page }) => (
          <li key={letter}>
            {page === null ? (
              <span
                aria-hidden
                className="block w-5 text-center text-[11px] leading-[15px] text-slate-300 dark:text-slate-600"
              >
                {letter}
              </span>
            ) : (
              <a
                href={hrefOf(letter, page)}
                aria-label={`People whose first name begins with ${letter}`}
                className="block w-5 rounded text-center text-[11px] leading-[15px] font-semibold text-brand-ink focus-visible:outline-2"
              >
                {letter}
              </a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
