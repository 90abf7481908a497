import { redirect } from "react-router";
import { readForm } from "~/.server/http/form-data";
import { safeRedirect } from "~/.server/platform/validation";
import { type Theme, themeCookie } from "~/lib/theme";
import type { Route } from "./+types/theme";

const THEMES: readonly Theme[] = ["light", "dark", "system"];

/** POST only: the theme switch's plain form, for pages without JavaScript. */
export async function loader() {
  throw redirect("/");
}

/**
 * Keeps the chosen theme in a cookie and goes back to the page it was chosen
 * on (a path of this site; anything else goes home). An unknown theme changes
 * nothing.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const theme = form.get("theme");
  const back = safeRedirect(form.get("back"));
  if (!THEMES.includes(theme as Theme)) throw redirect(back, 303);
  throw redirect(back, { status: 303, headers: { "Set-Cookie": themeCookie(theme as Theme) } });
}
