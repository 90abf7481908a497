import { ArrowRight, Eye } from "lucide-react";
import { Tabs } from "radix-ui";
import { Link, useNavigate } from "react-router";
import { GettingStartedPanel } from "~/components/admin/getting-started";
import { RemindWaitingButton } from "~/components/admin/invitations";
import { ProfileManagement } from "~/components/admin/profile-management";
import { Avatar } from "~/components/avatar";
import { DownloadButton } from "~/components/download-button";
import { PageHeader } from "~/components/page-header";
import { RefreshButton } from "~/components/refresh-button";
import { readableTextOn } from "~/lib/color";
import type { DashboardData } from "~/lib/dashboard";
import { fullName } from "~/lib/names";
import { NO_BRAND_COLOR } from "~/lib/settings";

const TAB_CLASSES =
  "rounded-md px-4 py-2 text-sm font-medium text-slate-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm dark:text-slate-400 dark:data-[state=active]:bg-slate-800 dark:data-[state=active]:text-white";

/** The administrator's dashboard: Overview and Manage Profiles. */
export function AdminDashboard({ data }: { data: DashboardData }) {
  const navigate = useNavigate();
  return (
    <div>
      <PageHeader
        title="Dashboard"
        description="An overview of profiles, adoption and views."
        actions={
          <>
            <RefreshButton />
            <DownloadButton
              href="/admin/export/dashboard.csv"
              label="Export Data"
              done="Dashboard data exported successfully!"
            />
          </>
        }
      />
      <Tabs.Root
        value={data.tab}
        onValueChange={(tab) => navigate(tab === "profiles" ? "/admin/profiles" : "/", { preventScrollReset: true })}
      >
        <Tabs.List aria-label="Dashboard" className="mb-6 inline-flex rounded-lg bg-slate-100 p-1 dark:bg-slate-900">
          <Tabs.Trigger value="overview" className={TAB_CLASSES}>
            Overview
          </Tabs.Trigger>
          <Tabs.Trigger value="profiles" className={TAB_CLASSES}>
            Manage Profiles ({data.stats.totalProfiles.toLocaleString("en")})
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="overview" className="focus:outline-none">
          <Overview data={data} />
        </Tabs.Content>
        <Tabs.Content value="profiles" className="focus:outline-none">
          {data.management ? <ProfileManagement management={data.management} brands={data.brands} /> : null}
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

/** The number a rollout lives by: cards, invited, claimed, active; and a reminder for those still waiting. */
function Rollout({ stats }: { stats: DashboardData["stats"] }) {
  const cards = stats.totalProfiles;
  const steps = [
    { label: "Cards", value: cards, note: "made or imported" },
    { label: "Invited", value: stats.invitedProfiles, note: "or joined without" },
    { label: "Claimed", value: stats.claimedProfiles, note: "by their owner" },
    { label: "Active", value: stats.activeMembers, note: "signed in within 30 days" },
  ];
  return (
    <section
      aria-labelledby="rollout-title"
      className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="rollout-title" className="text-lg font-semibold">
          Rollout
        </h2>
        {stats.waitingProfiles > 0 ? (
          <RemindWaitingButton
            waiting={stats.waitingProfiles}
            returnTo="/"
            label={`Remind the ${stats.waitingProfiles.toLocaleString("en")} who have not claimed`}
          />
        ) : null}
      </div>
      <ol className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {steps.map((step, index) => {
          const share = cards === 0 ? 0 : Math.round((step.value / cards) * 100);
          return (
            <li key={step.label} className="rounded-xl bg-slate-50 p-4 dark:bg-slate-800/60">
              <p className="flex items-center gap-1.5 text-sm font-medium text-slate-600 dark:text-slate-300">
                {index > 0 ? <ArrowRight aria-hidden className="size-3.5 text-slate-400" /> : null}
                {step.label}
              </p>
              <p className="mt-1 text-2xl font-semibold tabular-nums">
                {step.value.toLocaleString("en")}
                {index > 0 ? (
                  <span className="ml-2 text-sm font-normal text-slate-500 dark:text-slate-400">{share}%</span>
                ) : null}
              </p>
              <p className="text-xs text-slate-500 dark:text-slate-400">{step.note}</p>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function Overview({ data }: { data: DashboardData }) {
  const { stats } = data;
  const rate = Math.round(stats.adoptionRate);
  const tiles = [
    {
      label: "Total Profiles",
      value: stats.totalProfiles.toLocaleString("en"),
      note: `${stats.claimedProfiles} claimed • ${stats.unclaimedProfiles} pending`,
    },
    { label: "Adoption Rate", value: `${rate}%`, progress: Math.min(100, Math.max(0, rate)) },
    { label: "Total Views", value: stats.totalViews.toLocaleString("en"), note: "Across all profiles" },
    { label: "Active Brands", value: stats.activeBrands.toLocaleString("en"), note: "Companies represented" },
  ];
  return (
    <div className="space-y-8">
      {data.gettingStarted ? <GettingStartedPanel setup={data.gettingStarted} /> : null}
      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {tiles.map((tile) => (
          <div
            key={tile.label}
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="text-sm font-medium text-slate-500 dark:text-slate-400">{tile.label}</dt>
            <dd className="mt-2 text-3xl font-semibold tracking-tight">{tile.value}</dd>
            {tile.note ? <dd className="mt-1 text-sm text-slate-500 dark:text-slate-400">{tile.note}</dd> : null}
            {tile.progress !== undefined ? (
              <dd className="mt-3">
                <div
                  role="progressbar"
                  aria-label="Adoption rate"
                  aria-valuenow={tile.progress}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
                >
                  <div className="h-full rounded-full bg-brand-solid" style={{ width: `${tile.progress}%` }} />
                </div>
              </dd>
            ) : null}
          </div>
        ))}
      </dl>

      <Rollout stats={stats} />

      <section
        aria-labelledby="recent-title"
        className="rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <h2
          id="recent-title"
          className="border-b border-slate-200 px-6 py-4 text-lg font-semibold dark:border-slate-800"
        >
          Recent Members
        </h2>
        {data.recent.length === 0 ? (
          <p className="px-6 py-8 text-center text-sm text-slate-500 dark:text-slate-400">No profiles yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {data.recent.map((member) => (
              <li key={member.id} className="flex items-center gap-4 px-6 py-3">
                <div className="relative">
                  <Avatar person={member} photoUrl={member.photoUrl} size="sm" />
                  {!member.claimed ? (
                    <span
                      title="Unclaimed"
                      className="absolute -top-0.5 -right-0.5 size-3 rounded-full bg-orange-500 ring-2 ring-white dark:ring-slate-900"
                    >
                      <span className="sr-only">Unclaimed</span>
                    </span>
                  ) : null}
                </div>
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{fullName(member)}</p>
                  <p className="truncate text-sm text-slate-500 dark:text-slate-400">{member.email}</p>
                </div>
                {member.brandName ? (
                  <span
                    className="hidden rounded-full px-2.5 py-0.5 text-xs font-semibold sm:inline-block"
                    style={{
                      backgroundColor: member.brandColor ?? NO_BRAND_COLOR,
                      color: readableTextOn(member.brandColor ?? NO_BRAND_COLOR),
                    }}
                  >
                    {member.brandName}
                  </span>
                ) : null}
                <Link
                  to={`/profile/${encodeURIComponent(member.username)}`}
                  className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:hover:bg-slate-800 dark:hover:text-white"
                  aria-label={`View ${fullName(member)}'s card`}
                >
                  <Eye aria-hidden className="size-4" />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
