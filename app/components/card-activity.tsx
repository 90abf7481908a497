import type { LucideIcon } from "lucide-react";
import { ArrowRight, Contact, Eye, Inbox, QrCode, Wallet } from "lucide-react";
import { Link } from "react-router";

type Source = "link" | "qr" | "directory";

export type CardActivityData = {
  days: ({ day: string } & Record<Source, number>)[];
  totals: Record<Source | "views" | "contact" | "wallet" | "leads", number>;
  /** Wallet passes can be added: their figure is shown. */
  wallet: boolean;
};

const SOURCES: { key: Source; label: string; className: string }[] = [
  { key: "qr", label: "QR code", className: "bg-brand" },
  { key: "link", label: "Link", className: "bg-brand/55" },
  { key: "directory", label: "Directory", className: "bg-slate-300 dark:bg-slate-600" },
];

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const dayLabel = (day: string) => DAY.format(new Date(`${day}T00:00:00Z`));

/**
 * What the member's card brought them over the last 30 days: views per day by
 * where they came from, contact files saved, wallet passes added, and leads.
 * The chart is drawn for the eye; a table beside it says the same to a screen reader.
 */
export function CardActivity({ data }: { data: CardActivityData }) {
  const { days, totals } = data;
  const highest = Math.max(1, ...days.map((day) => day.link + day.qr + day.directory));
  const figures: { label: string; value: number; Icon: LucideIcon }[] = [
    { label: "Views", value: totals.views, Icon: Eye },
    { label: "QR scans", value: totals.qr, Icon: QrCode },
    { label: "Contacts saved", value: totals.contact, Icon: Contact },
    ...(data.wallet || totals.wallet > 0 ? [{ label: "Wallet adds", value: totals.wallet, Icon: Wallet }] : []),
    { label: "Leads", value: totals.leads, Icon: Inbox },
  ];
  return (
    <section
      aria-labelledby="activity-title"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="activity-title" className="text-lg font-semibold">
          Your card, last 30 days
        </h2>
        <Link to="/leads" className="inline-flex items-center gap-1 text-sm font-medium text-brand-ink hover:underline">
          Your leads <ArrowRight aria-hidden className="size-4" />
        </Link>
      </div>
      <dl className="mt-5 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {figures.map(({ label, value, Icon }) => (
          <div key={label} className="rounded-xl bg-slate-50 px-4 py-3 dark:bg-slate-800/60">
            <dt className="flex items-center gap-1.5 text-xs font-medium text-slate-500 dark:text-slate-400">
              <Icon aria-hidden className="size-3.5" />
              {label}
            </dt>
            <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid={`activity-${label}`}>
              {value.toLocaleString("en")}
            </dd>
          </div>
        ))}
      </dl>
      <figure className="mt-6">
        <div aria-hidden className="flex h-32 items-end gap-[3px]">
          {days.map((day) => {
            const total = day.link + day.qr + day.directory;
            return (
              <div
                key={day.day}
                title={`${dayLabel(day.day)}: ${total} ${total === 1 ? "view" : "views"}`}
                className="flex h-full min-w-0 flex-1 flex-col-reverse overflow-hidden rounded-t-sm bg-slate-100 dark:bg-slate-800"
              >
                {SOURCES.map((source) =>
                  day[source.key] > 0 ? (
                    <div
                      key={source.key}
                      className={source.className}
                      style={{ height: `${(day[source.key] / highest) * 100}%` }}
                    />
                  ) : null,
                )}
              </div>
            );
          })}
        </div>
        <div aria-hidden className="mt-1 flex justify-between text-xs text-slate-500 dark:text-slate-400">
          <span>{dayLabel(days[0]?.day ?? "")}</span>
          <span>Today</span>
        </div>
        <figcaption className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
          <span className="sr-only">Views per day, by where they came from.</span>
          {SOURCES.map((source) => (
            <span key={source.key} aria-hidden className="inline-flex items-center gap-1.5">
              <span className={`size-2.5 rounded-sm ${source.className}`} />
              {source.label} ({totals[source.key].toLocaleString("en")})
            </span>
          ))}
        </figcaption>
        <table className="sr-only">
          <caption>Views of your card per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {SOURCES.map((source) => (
                <th key={source.key} scope="col">
                  {source.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days
              .filter((day) => day.link + day.qr + day.directory > 0)
              .map((day) => (
                <tr key={day.day}>
                  <th scope="row">{dayLabel(day.day)}</th>
                  {SOURCES.map((source) => (
                    <td key={source.key}>{day[source.key]}</td>
                  ))}
                </tr>
              ))}
          </tbody>
        </table>
      </figure>
    </section>
  );
}
