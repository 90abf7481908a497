import { Search } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { useSubmit } from "react-router";
import { cn } from "~/lib/cn";

/** Typing settles for this long before the search runs. */
const SEARCH_DEBOUNCE_MS = 250;

const SELECT =
  "h-10 min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-950";

/**
 * A GET search form that searches as you go: typing waits a moment and replaces
 * the history entry (so Back leaves the page), a changed filter applies at once
 * and gets its own entry. Stale answers are dropped because only the latest
 * navigation wins. When Back or Forward changes the URL under the mounted page,
 * the fields show what it says. Without JavaScript it stays a plain GET form.
 */
export function useLiveSearch(action: string, values: Record<string, string>) {
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const synced = JSON.stringify(values);
  useEffect(() => {
    const elements = form.current?.elements;
    if (!elements) return;
    for (const [name, value] of Object.entries(JSON.parse(synced) as Record<string, string>)) {
      const field = elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      if (field && field !== document.activeElement) field.value = value;
    }
  }, [synced]);

  return {
    ref: form,
    onChange(event: React.FormEvent<HTMLFormElement>) {
      const immediate = (event.target as HTMLElement).tagName === "SELECT";
      clearTimeout(timer.current);
      const run = () => {
        if (!form.current) return;
        const data = new FormData(form.current);
        for (const [key, value] of [...data.entries()]) if (value === "" || value === "all") data.delete(key);
        void submit(data, { method: "get", action, replace: !immediate, preventScrollReset: true });
      };
      if (immediate) run();
      else timer.current = setTimeout(run, SEARCH_DEBOUNCE_MS);
    },
    onSubmit() {
      clearTimeout(timer.current);
    },
  };
}

export function SearchBox({
  id,
  label,
  placeholder,
  defaultValue,
}: {
  id: string;
  label: string;
  placeholder: string;
  defaultValue: string;
}) {
  return (
    <div className="relative">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
      />
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={defaultValue}
        placeholder={placeholder}
        autoComplete="off"
        className="block h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm placeholder:text-slate-500 focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none dark:border-slate-700 dark:bg-slate-950 dark:placeholder:text-slate-400"
      />
    </div>
  );
}

export function FilterSelect({
  id,
  label,
  name,
  defaultValue,
  options,
}: {
  id: string;
  label: string;
  name: string;
  defaultValue: string;
  options: { value: string; label: string }[];
}) {
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className={SELECT}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}

export const BRAND_OPTIONS = (brands: { id: number; name: string }[]) => [
  { value: "", label: "All Brands" },
  ...brands.map((brand) => ({ value: String(brand.id), label: brand.name })),
];

export const STATUS_OPTIONS = [
  { value: "all", label: "All Status" },
  { value: "claimed", label: "Claimed" },
  { value: "unclaimed", label: "Unclaimed" },
];

/**
 * A search form's filters: on a phone, one row that scrolls sideways, so the
 * results start near the top of the screen; wider, each filter takes its
 * place in the form's own grid.
 */
export function FilterRow({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={cn("flex gap-2 overflow-x-auto max-sm:[&>*]:shrink-0 max-sm:[&_select]:w-40 sm:contents", className)}
    >
      {children}
    </div>
  );
}
