import type { CardFieldKey } from "./card-fields";
/**
 * What the administrator's dashboard page receives. Written out here, so the
 * components that render it need nothing from the server code; the server's
 * `loadDashboard` is typed against it, so the two cannot drift apart.
 */
export type ClaimFilter = "all" | "claimed" | "unclaimed";

export type DashboardTab = "overview" | "profiles";

/** Invitation states a card can be filtered by (not invited, invited, reminded, claimed). */
export const INVITATION_FILTERS = ["all", "not-invited", "invited", "reminded", "claimed"] as const;
export type InvitationFilter = (typeof INVITATION_FILTERS)[number];
/** Whether a card is switched on (active) or off by an administrator. */
type CardStateFilter = "all" | "active" | "deactivated";

export type AdminProfileQuery = {
  q: string;
  brand: number | null;
  status: ClaimFilter;
  page: number;
  invitation: InvitationFilter;
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
  /** The rollout, of cards not deactivated: invited (or claimed without an invitation), and those invited still unclaimed. */
  invitedProfiles: number;
  waitingProfiles: number;
  /** Claimed cards whose owner signed in within 30 days. */
  activeMembers: number;
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
  /** The card's version, which its edit form sends back (a save over a later change is refused). */
  version: string;
  /** When the person was last invited (null: never), and how many reminders followed. */
  invitedAt: string | null;
  remindersSent: number;
  /** The person asked for no more invitations (the link in each invitation mail). */
  invitationsStopped: boolean;
  /** Old usernames that still lead to the card, newest first. */
  oldUsernames: string[];
  /** The card's owner is an administrator, and whether ADMIN_EMAILS makes them one (then only the configuration can take it). */
  admin: boolean;
  adminByConfiguration: boolean;
  /** The owner has an authenticator app or a passkey: an administrator can remove them when the phone is lost. */
  secondFactor: boolean;
  /** The brands the owner administers, by id (none for most). */
  administers: number[];
};

/** Invitation mails the queue gave up on, for the administrator to retry. */
type FailedMail = {
  id: number;
  kind: "invitation" | "reminder";
  email: string;
  attempts: number;
  lastError: string | null;
};

export type InvitationSummary = {
  /** Unclaimed cards never invited. */
  notInvited: number;
  /** Unclaimed cards invited at least once. */
  invitedUnclaimed: number;
  /** The first few never invited, by name: an invitation to all says whom it reaches. */
  firstNotInvited: string[];
  failed: FailedMail[];
  failedCount: number;
  /** Invitation mails waiting in the queue, not sent yet: a bulk send can still be cancelled. */
  queued: number;
  /** The invitation as it will arrive, for the confirmation. */
  preview: { subject: string; text: string };
};

export type ProfileManagementData = {
  rows: ManagedProfile[];
  shown: number;
  total: number;
  page: number;
  pageCount: number;
  query: AdminProfileQuery;
  invitations: InvitationSummary;
  /** Whether the viewer administers the whole site: roles, second steps and brand administration are theirs only. */
  siteWide: boolean;
};

/** What a new installation still needs, each step done or not (app/.server/settings/getting-started.ts). */
export type GettingStarted = { steps: { company: boolean; brands: boolean; joining: boolean; people: boolean } };

export type DashboardData = {
  tab: DashboardTab;
  /** Shown to the whole site's administrators until set-up is done or hidden; null otherwise. */
  gettingStarted: GettingStarted | null;
  stats: OverviewStats;
  recent: RecentMember[];
  management: ProfileManagementData | null;
  /** The brands within reach, each with the fields its template sets on every card of it. */
  brands: { id: number; name: string; active: boolean; setFields: CardFieldKey[] }[];
};
