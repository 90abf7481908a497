import inter from "~/fonts/inter.css?url";
import lato from "~/fonts/lato.css?url";
import montserrat from "~/fonts/montserrat.css?url";
import openSans from "~/fonts/open-sans.css?url";
import poppins from "~/fonts/poppins.css?url";
import roboto from "~/fonts/roboto.css?url";
import type { FontFamily } from "./settings";

/**
 * One small stylesheet per font family, built by Vite. The root links only
 * the family the settings chose, so no page carries the others' @font-face rules.
 */
const STYLESHEETS: Record<FontFamily, string> = {
  Inter: inter,
  Roboto: roboto,
  "Open Sans": openSans,
  Lato: lato,
  Montserrat: montserrat,
  Poppins: poppins,
};

export function fontStylesheet(family: string): string {
  return STYLESHEETS[family as FontFamily] ?? STYLESHEETS.Inter;
}
