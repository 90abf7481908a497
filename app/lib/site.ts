import { useRouteLoaderData } from "react-router";
import { DEFAULT_SETTINGS, type SiteSettings } from "./settings";

/** What every screen knows of the site settings (the root loader's data). */
export type SiteSummary = Pick<
  SiteSettings,
  | "companyName"
  | "description"
  | "primaryColor"
  | "secondaryColor"
  | "accentColor"
  | "fontFamily"
  | "favicon"
  | "primaryLogo"
  | "darkModeLogo"
  | "footerLogo"
> & { hasTerms: boolean; hasPrivacy: boolean };

export function pickSiteSummary(settings: SiteSettings): SiteSummary {
  const {
    companyName,
    description,
    primaryColor,
    secondaryColor,
    accentColor,
    fontFamily,
    favicon,
    primaryLogo,
    darkModeLogo,
    footerLogo,
  } = settings;
  return {
    companyName,
    description,
    primaryColor,
    secondaryColor,
    accentColor,
    fontFamily,
    favicon,
    primaryLogo,
    darkModeLogo,
    footerLogo,
    hasTerms: !!settings.termsOfService,
    hasPrivacy: !!settings.privacyPolicy,
  };
}

export function useSite(): SiteSummary {
  const data = useRouteLoaderData("root") as { site?: SiteSummary } | undefined;
  return data?.site ?? pickSiteSummary(DEFAULT_SETTINGS);
}
