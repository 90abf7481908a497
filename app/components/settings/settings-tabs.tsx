import { NavLink } from "react-router";
import { cn } from "~/lib/cn";
import { SETTINGS_TABS } from "~/lib/settings";

const TAB =
  "flex items-center justify-center rounded-md px-2 py-2 text-center text-sm font-medium sm:px-4 " +
  "text-slate-600 hover:text-slate-900 " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand " +
  "dark:text-slate-400 dark:hover:text-white";
const CURRENT = "bg-white text-slate-900 shadow-sm dark:bg-slate-800 dark:text-white";

/**
 * The settings' tabs, each a link to its own page: the current one says so to
 * screen readers (`aria-current="page"`), and each works without JavaScript.
 */
export function SettingsTabs() {
  return (
    <nav aria-label="Settings" className="mb-6">
      {/* Three to a row on a phone, one row where they fit: every tab is seen without scrolling sideways. */}
      <ul className="grid grid-cols-3 gap-1 rounded-lg bg-slate-100 p-1 sm:inline-flex sm:flex-wrap sm:gap-0 dark:bg-slate-900">
        {SETTINGS_TABS.map(({ value, label }) => (
          <li key={value} className="contents">
            <NavLink
              to={`/admin/settings/${value}`}
              preventScrollReset
              className={({ isActive }) => cn(TAB, isActive && CURRENT)}
            >
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
