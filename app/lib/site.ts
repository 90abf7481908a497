import { useRouteLoaderData } from "react-router";
import { mediaUrl } from "./media";
import { DEFAULT_SETTINGS, type SiteSettings } from "./settings";

/** What every screen knows of the site settings (the root loader's data); images as their addresses on this site. */
export type SiteSummary = Pick<
  SiteSettings,
  | "companyName"
  | "website"
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
  const { companyName, website, description, primaryColor, secondaryColor, accentColor, fontFamily } = settings;
  return {
    companyName,
    website,
    description,
    primaryColor,
    secondaryColor,
    accentColor,
    fontFamily,
    favicon: mediaUrl(settings.favicon),
    primaryLogo: mediaUrl(settings.primaryLogo),
    darkModeLogo: mediaUrl(settings.darkModeLogo),
    footerLogo: mediaUrl(settings.footerLogo),
    hasTerms: !!settings.termsOfService,
    hasPrivacy: !!settings.privacyPolicy,
  };
}

type RootData = { site?: SiteSummary; signedIn?: boolean };

export function useSite(): SiteSummary {
  const data = useRouteLoaderData("root") as RootData | undefined;
  return data?.site ?? pickSiteSummary(DEFAULT_SETTINGS);
}

/**
 * Whether the request carried a session cookie: enough to choose a way onward
 * (home for a member, never the sign-in page for a visitor), never to protect anything.
 */
export function useSignedIn(): boolean {
  const data = useRouteLoaderData("root") as RootData | undefined;
  return data?.signedIn ?? false;
}
