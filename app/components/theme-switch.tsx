import { Check, Monitor, Moon, Sun } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useLocation, useRouteLoaderData } from "react-router";
import { useT } from "~/lib/i18n/intl";
import { type Theme, useTheme } from "~/lib/theme";
import type { MessageId } from "~/locales/en";

const OPTIONS: { value: Theme; label: MessageId; Icon: typeof Sun }[] = [
  { value: "light", label: "theme.light", Icon: Sun },
  { value: "dark", label: "theme.dark", Icon: Moon },
  { value: "system", label: "theme.system", Icon: Monitor },
];

/**
 * The header's theme switch: Light, Dark and System, in a menu. Without
 * JavaScript it is a plain form of three buttons that keeps the choice in a
 * cookie and comes back to this page.
 */
export function ThemeSwitch() {
  const chosen = (useRouteLoaderData("root") as { theme?: Theme } | undefined)?.theme;
  const [theme, setTheme] = useTheme(chosen);
  const location = useLocation();
  const current = OPTIONS.find((option) => option.value === theme) ?? OPTIONS[2]!;
  const t = useT();
  return (
    <>
      <form
        method="post"
        action="/theme"
        aria-label={t("theme.label")}
        className="hidden items-center gap-0.5 no-js:flex static-page:flex"
      >
        <input type="hidden" name="back" value={`${location.pathname}${location.search}`} />
        {OPTIONS.map(({ value, label, Icon }) => (
          <button
            key={value}
            type="submit"
            name="theme"
            value={value}
            aria-label={t(label)}
            aria-pressed={value === theme}
            title={t(label)}
            className="inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 aria-pressed:bg-slate-100 aria-pressed:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:aria-pressed:bg-slate-800 dark:aria-pressed:text-white"
          >
            <Icon aria-hidden className="size-5" />
          </button>
        ))}
      </form>
      <ThemeMenu theme={theme} setTheme={setTheme} current={current} />
    </>
  );
}

function ThemeMenu({
  theme,
  setTheme,
  current,
}: {
  theme: Theme;
  setTheme: (theme: Theme) => void;
  current: (typeof OPTIONS)[number];
}) {
  const t = useT();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className="inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 no-js:hidden static-page:hidden dark:text-slate-300 dark:hover:bg-slate-800"
        aria-label={t("theme.current", { theme: t(current.label) })}
      >
        <current.Icon aria-hidden className="size-5" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-36 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-slate-500 dark:text-slate-400">
            {t("theme.label")}
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={theme} onValueChange={(value) => setTheme(value as Theme)}>
            {OPTIONS.map(({ value, label, Icon }) => (
              <DropdownMenu.RadioItem
                key={value}
                value={value}
                className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-slate-700 outline-none data-[highlighted]:bg-slate-100 dark:text-slate-200 dark:data-[highlighted]:bg-slate-800"
              >
                <Icon aria-hidden className="size-4" />
                <span className="flex-1">{t(label)}</span>
                <DropdownMenu.ItemIndicator>
                  <Check aria-hidden className="size-4 text-brand-ink" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
