import { useCallback, useEffect, useSyncExternalStore } from "react";

/** Kept in local browser storage under the key `theme`. */
const THEME_STORAGE_KEY = "theme";
/** The cookie that carries the theme chosen without JavaScript (and the only one a reused card page may see). */
export const THEME_COOKIE = "theme";
const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];

/** A year: the choice lasts until changed. */
const THEME_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark" || value === "system";
}

/** The theme a `Cookie` header names, for the server's first paint (and pages cached per theme). */
export function themeFromCookie(header: string | null | undefined): Theme {
  const match = new RegExp(`(?:^|;\\s*)${THEME_COOKIE}=([a-z]+)`).exec(header ?? "");
  return isTheme(match?.[1]) ? match[1] : "system";
}

/** The `Set-Cookie` value that keeps `theme` (read by the server, and by the page before it paints). */
export function themeCookie(theme: Theme): string {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${THEME_COOKIE_MAX_AGE}; SameSite=Lax`;
}

/**
 * Runs in <head> before the first paint so the page never flashes the wrong
 * theme, and marks the page as running scripts (`js`: what only works
 * without JavaScript hides). It mirrors `applyTheme` below and must stay
 * dependency-free. The theme chosen without JavaScript is in a cookie.
 */
export const THEME_BOOT_SCRIPT = `(function(){var e=document.documentElement;e.classList.add("js");try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)})||(document.cookie.match(/(?:^|; )${THEME_COOKIE}=(light|dark|system)/)||[])[1];var d=t==="dark"||((t!=="light")&&matchMedia("(prefers-color-scheme: dark)").matches);e.classList.toggle("dark",d);}catch(x){}})();`;

function readTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY) ?? themeFromCookie(document.cookie);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}

const DARK_QUERY = "(prefers-color-scheme: dark)";

function applyTheme(theme: Theme) {
  const dark = theme === "dark" || (theme === "system" && matchMedia(DARK_QUERY).matches);
  document.documentElement.classList.toggle("dark", dark);
}

const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/**
 * The chosen theme and a setter; 'system' follows the OS preference live.
 * `serverTheme` is what the server knew (the cookie), for the server's render and hydration.
 */
export function useTheme(serverTheme: Theme = "system"): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(subscribe, readTheme, () => serverTheme);

  useEffect(() => {
    applyTheme(theme);
    if (theme !== "system") return;
    const media = matchMedia(DARK_QUERY);
    const onChange = () => applyTheme("system");
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, [theme]);

  const setTheme = useCallback((next: Theme) => {
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Private mode without storage: the cookie still keeps it.
    }
    // The server paints the next page in it too.
    // biome-ignore lint/suspicious/noDocumentCookie: one plain preference cookie, no cookie store needed
    document.cookie = themeCookie(next);
    applyTheme(next);
    for (const listener of listeners) listener();
  }, []);

  return [theme, setTheme];
}
