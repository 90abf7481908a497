import type { getOverviewStats } from "~/.server/stats";
import { PageHeader } from "~/components/page-header";

type Stats = Awaited<ReturnType<typeof getOverviewStats>>;

export function AdminOverview({ stats }: { stats: Stats }) {
  const rate = Math.round(stats.adoptionRate);
  const tiles = [
    { label: "Total Profiles", value: stats.totalProfiles, note: `${stats.claimedProfiles} claimed • ${stats.unclaimedProfiles} pending` },
    { label: "Adoption Rate", value: `${rate}%`, note: null, progress: Math.min(100, rate) },
    { label: "Total Views", value: stats.totalViews, note: "Across all profiles" },
    { label: "Active Brands", value: stats.activeBrands, note: "Companies represented" },
  ];
  return (
    <div>
      <PageHeader title="Dashboard" description="An overview of profiles, adoption and views." />
      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {tiles.map((tile) => (
          <div
            key={tile.label}
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="text-sm font-medium text-slate-500 dark:text-slate-400">{tile.label}</dt>
            <dd className="mt-2 text-3xl font-semibold tracking-tight">
              {typeof tile.value === "number" ? tile.value.toLocaleString("en") : tile.value}
            </dd>
            {tile.note ? <dd className="mt-1 text-sm text-slate-500 dark:text-slate-400">{tile.note}</dd> : null}
            {tile.progress !== undefined ? (
              <dd className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800">
                <div className="h-full rounded-full bg-brand-solid" style={{ width: `${tile.progress}%` }} />
              </dd>
            ) : null}
          </div>
        ))}
      </dl>
    </div>
  );
}
