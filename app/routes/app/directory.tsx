import { LayoutGrid, List, Search, SearchX } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form, useNavigation, useSubmit } from "react-router";
import { activeBrandOptions } from "~/.server/profile-update";
import { parseDirectoryQuery, searchDirectory } from "~/.server/directory";
import { PageHeader } from "~/components/page-header";
import { Pagination } from "~/components/pagination";
import { ProfileGridCard, ProfileListRow } from "~/components/profile-card";
import { Spinner } from "~/components/ui/spinner";
import { cn } from "~/lib/cn";
import { can } from "~/lib/permissions";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/directory";

/** Typing settles for this long before the search runs. */
const SEARCH_DEBOUNCE_MS = 250;
const VIEW_COOKIE = "directory_view";

export const meta: Route.MetaFunction = () => [{ title: "Directory" }];

function viewFrom(request: Request): "grid" | "list" {
  const cookie = request.headers.get("cookie") ?? "";
  return new RegExp(`(?:^|;\\s*)${VIEW_COOKIE}=list`).test(cookie) ? "list" : "grid";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const canSeeClaims = can(viewer.role, "read:claim-status:any");
  const query = parseDirectoryQuery(new URL(request.url), { canFilterStatus: canSeeClaims });
  const [result, brands] = await Promise.all([
    searchDirectory(query, { includeClaimStatus: canSeeClaims }),
    activeBrandOptions(),
  ]);
  return { ...result, query, brands, canSeeClaims, view: viewFrom(request) };
}

export default function Directory({ loaderData }: Route.ComponentProps) {
  const { entries, total, page, pageCount, query, brands, canSeeClaims } = loaderData;
  const navigation = useNavigation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [view, setView] = useState(loaderData.view);
  const searching =
    navigation.state === "loading" && navigation.location.pathname === "/directory";

  useEffect(() => () => clearTimeout(timer.current), []);

  // Back and Forward change the URL under a mounted page: show what it says.
  useEffect(() => {
    const elements = form.current?.elements;
    if (!elements) return;
    const set = (name: string, value: string) => {
      const field = elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      if (field && field !== document.activeElement) field.value = value;
    };
    set("q", query.q);
    set("brand", query.brand ? String(query.brand) : "");
    set("status", query.status);
  }, [query.q, query.brand, query.status]);

  // Typing searches as you go, replacing the history entry so Back leaves the
  // directory; stale answers are dropped because only the latest navigation wins.
  function searchSoon(immediate = false) {
    clearTimeout(timer.current);
    const run = () => {
      if (!form.current) return;
      const data = new FormData(form.current);
      for (const [key, value] of [...data.entries()]) if (value === "" || value === "all") data.delete(key);
      submit(data, { method: "get", replace: !immediate, preventScrollReset: true });
    };
    if (immediate) run();
    else timer.current = setTimeout(run, SEARCH_DEBOUNCE_MS);
  }

  function chooseView(next: "grid" | "list") {
    setView(next);
    document.cookie = `${VIEW_COOKIE}=${next}; Path=/; Max-Age=31536000; SameSite=Lax`;
  }


  return (
    <div>
      <PageHeader title="Directory" description="Find and connect with your colleagues across all brands." />

      <Form
        ref={form}
        method="get"
        role="search"
        aria-label="Search the directory"
        className="mb-6 grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-[minmax(0,1fr)_auto_auto_auto] dark:border-slate-800 dark:bg-slate-900"
        onChange={(event) => {
          const target = event.target as HTMLElement;
          searchSoon(target.tagName === "SELECT");
        }}
        onSubmit={() => clearTimeout(timer.current)}
      >
        <div className="relative">
          <label htmlFor="directory-q" className="sr-only">
            Search
          </label>
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
          <input
            id="directory-q"
            type="search"
            name="q"
            defaultValue={query.q}
            placeholder="Search by name, email, username, or bio..."
            autoComplete="off"
            className="block h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm placeholder:text-slate-500 focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none dark:border-slate-700 dark:bg-slate-950 dark:placeholder:text-slate-400"
          />
        </div>
        <label className="sr-only" htmlFor="directory-brand">
          Brand
        </label>
        <select
          id="directory-brand"
          name="brand"
          defaultValue={query.brand ? String(query.brand) : ""}
          className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-950"
        >
          <option value="">All Brands</option>
          {brands.map((brand) => (
            <option key={brand.id} value={brand.id}>
              {brand.name}
            </option>
          ))}
        </select>
        {canSeeClaims ? (
          <>
            <label className="sr-only" htmlFor="directory-status">
              Status
            </label>
            <select
              id="directory-status"
              name="status"
              defaultValue={query.status}
              className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-950"
            >
              <option value="all">All Status</option>
              <option value="claimed">Claimed</option>
              <option value="unclaimed">Unclaimed</option>
            </select>
          </>
        ) : null}
        <button
          type="submit"
          className="h-10 rounded-lg bg-brand-solid px-4 text-sm font-medium text-white hover:brightness-110"
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
        <div role="group" aria-label="Layout" className="inline-flex rounded-lg border border-slate-200 bg-white p-0.5 dark:border-slate-700 dark:bg-slate-900">
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
                view === value ? "bg-brand/10 text-brand-ink" : "text-slate-500 hover:text-slate-800 dark:hover:text-white",
              )}
            >
              <Icon aria-hidden className="size-4" />
            </button>
          ))}
        </div>
      </div>

      <div className={cn("transition-opacity", searching && "opacity-60")}>
        {entries.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center dark:border-slate-700 dark:bg-slate-900">
            <SearchX aria-hidden className="size-8 text-slate-400" />
            <p className="font-semibold">No profiles found</p>
            <p className="text-sm text-slate-500 dark:text-slate-400">Try adjusting your search or filter criteria.</p>
          </div>
        ) : view === "grid" ? (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">
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
