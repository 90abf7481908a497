/** Site settings as every screen sees them: stored values over these defaults. */
const PRODUCT_NAME = "Namecard";

export const DEFAULT_SETTINGS = {
  companyName: PRODUCT_NAME,
  website: null as string | null,
  email: null as string | null,
  phone: null as string | null,
  description: "Digital business card platform for internal networking and professional connections.",
  address: null as string | null,
  primaryColor: "#3b82f6",
  secondaryColor: "#8b5cf6",
  accentColor: "#f97316",
  fontFamily: "Inter" as string,
  primaryLogo: null as string | null,
  darkModeLogo: null as string | null,
  favicon: null as string | null,
  footerLogo: null as string | null,
  /** Visitors who are not signed in see a card's view count and "Member Since" unless this is off. */
  showStatsToVisitors: true as boolean,
  /** The language of a card whose visitor's browser asks for none Namecard speaks (and no brand says otherwise). */
  defaultLocale: "en" as string,
  termsOfService: null as string | null,
  privacyPolicy: null as string | null,
};

export type SiteSettings = typeof DEFAULT_SETTINGS;

export const NO_BRAND_COLOR = "#6b7280";

/** The fonts the settings offer, all self-hosted. */
export const FONT_FAMILIES = ["Inter", "Roboto", "Open Sans", "Lato", "Montserrat", "Poppins"] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];

/** The CSS family of each font. */
export const FONT_STACKS: Record<FontFamily, string> = {
  Inter: '"Inter Variable"',
  Roboto: '"Roboto Variable"',
  "Open Sans": '"Open Sans Variable"',
  Lato: '"Lato"',
  Montserrat: '"Montserrat Variable"',
  Poppins: '"Poppins"',
};

/** A new brand's colours unless chosen. */
export const DEFAULT_BRAND_PRIMARY = "#3b82f6";
export const DEFAULT_BRAND_SECONDARY = "#8b5cf6";

/**
 * Who may make an account: people with an address at the listed domains (the
 * default), only people an administrator prepared a card for, or anyone.
 */
export const JOIN_RULES = ["domains", "invited", "anyone"] as const;
export type JoinRuleMode = (typeof JOIN_RULES)[number];

/** Who must complete a password sign-in with a second factor, besides nobody (the default). */
export const SECOND_FACTOR_RULES = ["admins", "everyone"] as const;
export type SecondFactorRule = (typeof SECOND_FACTOR_RULES)[number];

/** The tabs of the settings screen, in order: each is its own page, /admin/settings/<value>. */
export const SETTINGS_TABS = [
  { value: "general", label: "General" },
  { value: "branding", label: "Branding" },
  { value: "legal", label: "Legal & privacy" },
  { value: "invitations", label: "Invitations" },
  { value: "joining", label: "Who can join" },
  { value: "fields", label: "Card fields" },
  { value: "security", label: "Security" },
] as const;
