/**
 * What the administrator's dashboard page receives. Written out here, so the
 * components that render it need nothing from the server code; the server's
 * `loadDashboard` is typed against it, so the two cannot drift apart.
 */
export type ClaimFilter = "all" | "claimed" | "unclaimed";

export type DashboardTab = "overview" | "profiles";

/** Whether a card is switched on (active) or off by an administrator. */
type CardStateFilter = "all" | "active" | "deactivated";

export type AdminProfileQuery = {
  q: string;
  brand: number | null;
  status: ClaimFilter;
  page: number;
  state: CardStateFilter;
};

type OverviewStats = {
  totalProfiles: number;
  claimedProfiles: number;
  unclaimedProfiles: number;
  totalViews: number;
  activeProfiles: number;
  newThisWeek: number;
  activeBrands: number;
  /** Claimed / all × 100, 0 when there are none. */
  adoptionRate: number;
  /** Created in the last 7 days / older × 100; 0 when nothing is older. */
  weeklyGrowth: number;
};

type Person = { id: string; firstName: string; lastName: string; username: string; email: string };

type RecentMember = Person & {
  claimed: boolean;
  brandName: string | null;
  brandColor: string | null;
  photoUrl: string | null;
  createdAt: string;
};

export type ManagedProfile = Person & {
  phone: string | null;
  title: string | null;
  bio: string | null;
  linkedinUrl: string | null;
  companyBrandId: number | null;
  profilePhoto: string | null;
  viewCount: number;
  claimed: boolean;
  brandName: string | null;
  brandColor: string | null;
  photoUrl: string | null;
  createdAt: string;
  /** Switched off by an administrator. */
  deactivated: boolean;
};

export type ProfileManagementData = {
  rows: ManagedProfile[];
  shown: number;
  total: number;
  page: number;
  pageCount: number;
  query: AdminProfileQuery;
};

export type DashboardData = {
  tab: DashboardTab;
  stats: OverviewStats;
  recent: RecentMember[];
  management: ProfileManagementData | null;
  brands: { id: number; name: string; active: boolean }[];
};
