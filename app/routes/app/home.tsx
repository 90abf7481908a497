import { ArrowRight, Circle, CircleCheck, Contact, Eye, PencilLine, Send, Trophy, Users } from "lucide-react";
import { Link } from "react-router";
import { cardActivity } from "~/.server/analytics/card-activity";
import { loadDashboard } from "~/.server/analytics/dashboard";
import { getProfileRank } from "~/.server/analytics/stats";
import { parseQuery } from "~/.server/http/responses";
import { claimedPreparedCardRecently, isFirstSignIn, setupSteps } from "~/.server/profiles/welcome";
import { appleWalletReady } from "~/.server/wallet/apple";
import { googleWalletReady } from "~/.server/wallet/google";
import { AdminDashboard } from "~/components/admin/dashboard";
import { CardActivity } from "~/components/card-activity";
import { greetingName } from "~/lib/names";
import type { LiveHandle } from "~/lib/realtime";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ matches }) => {
  const company = (matches[0]?.data as { site?: { companyName: string } } | undefined)?.site?.companyName ?? "Namecard";
  return [{ title: `Home · ${company}` }];
};

/** The administrator's dashboard shows every count; a member's home only their own card's. */
export const handle: LiveHandle = {
  live: (event, data) => {
    const home = data as { kind: "admin" } | { kind: "member"; profileId: string | null } | undefined;
    return event.kind !== "view" || home?.kind === "admin" || (home?.kind === "member" && event.id === home.profileId);
  },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  if (viewer.isAdmin) {
    // For the administrator, the home route is the dashboard.
    return { kind: "admin" as const, dashboard: await parseQuery(() => loadDashboard(viewer, new URL(request.url))) };
  }
  const profile = viewer.profile;
  // Independent reads, asked at once: the page waits for the slowest, not for their sum.
  const [rank, prepared, firstSignIn, steps, activity] = await Promise.all([
    profile ? getProfileRank(profile.id) : 0,
    claimedPreparedCardRecently(viewer.user.id),
    isFirstSignIn(viewer.user.id),
    profile ? setupSteps(profile.id) : [],
    profile ? cardActivity(profile.id) : null,
  ]);
  const wallet = activity ? (await googleWalletReady()) || (await appleWalletReady()) : false;
  return {
    kind: "member" as const,
    profileId: profile?.id ?? null,
    // The name the greeting uses: the given name, or the whole name where it comes first (lib/names.ts).
    firstName: profile ? greetingName(profile) : "",
    username: profile?.username ?? "",
    views: profile?.viewCount ?? 0,
    rank,
    prepared,
    firstSignIn,
    steps,
    activity: activity ? { ...activity, wallet } : null,
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "admin") return <AdminDashboard data={loaderData.dashboard} />;
  const { firstName, username, views, rank, prepared, firstSignIn, steps, activity } = loaderData;
  const todo = steps.filter((step) => !step.done);
  const cards = [
    {
      to: "/profile/edit",
      title: "Edit Profile",
      text: "Keep your details, photo and brand up to date.",
      Icon: PencilLine,
    },
    {
      to: `/profile/${username}`,
      title: "View My Card",
      text: "See your card as others see it, share it or show its QR code.",
      Icon: Contact,
    },
    {
      to: "/share",
      title: "Share My Card",
      text: "Your link and QR code, an e-mail signature and a video-call background.",
      Icon: Send,
    },
    {
      to: "/directory",
      title: "Browse Directory",
      text: "Find and connect with colleagues across all brands.",
      Icon: Users,
    },
  ];
  return (
    <div className="space-y-8">
      <section className="brand-gradient overflow-hidden rounded-2xl p-6 text-on-banner shadow-sm sm:p-8">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">
          {prepared || firstSignIn ? `Welcome, ${firstName}!` : `Welcome back, ${firstName}!`}
        </h1>
        <p className="mt-2 max-w-xl">
          {prepared
            ? "Your card was prepared for you before you joined, and it is yours now. Check your details and make it your own."
            : "Your digital business card is ready to share."}
        </p>
        {views > 0 || rank > 0 ? (
          <dl className="mt-6 flex flex-wrap gap-3">
            {views > 0 ? (
              <div className="flex items-center gap-2 rounded-full bg-white/15 px-4 py-1.5 text-sm">
                <Eye aria-hidden className="size-4" />
                <dt className="sr-only">Views</dt>
                <dd>
                  {views.toLocaleString("en")} {views === 1 ? "view" : "views"}
                </dd>
              </div>
            ) : null}
            {rank > 0 ? (
              <div className="flex items-center gap-2 rounded-full bg-white/15 px-4 py-1.5 text-sm">
                <Trophy aria-hidden className="size-4" />
                <dt className="sr-only">Rank</dt>
                <dd>Rank #{rank}</dd>
              </div>
            ) : null}
          </dl>
        ) : null}
      </section>
      {username ? (
        <section
          aria-labelledby="share-title"
          className="flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:flex-row sm:items-center sm:p-8 dark:border-slate-800 dark:bg-slate-900"
        >
          <Link
            to={`/qr/${username}`}
            className="mx-auto shrink-0 rounded-xl bg-white p-3 ring-1 ring-slate-200 sm:mx-0 dark:ring-slate-700"
          >
            <img
              src={`/profile/${username}/qr.png`}
              alt="Your card's QR code: opens it full screen"
              width={176}
              height={176}
              className="size-44"
            />
          </Link>
          <div className="min-w-0 flex-1 space-y-3">
            <h2 id="share-title" className="text-lg font-semibold">
              Share your card
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Let someone scan this code with their phone's camera: your card opens, ready to save to their contacts.
            </p>
            {todo.length > 0 ? (
              <div className="space-y-2">
                <h3 className="text-sm font-medium">Finish your card</h3>
                <ul className="space-y-1.5">
                  {steps.map((step) => (
                    <li key={step.key} className="flex items-center gap-2 text-sm">
                      {step.done ? (
                        <CircleCheck aria-hidden className="size-4 text-emerald-600 dark:text-emerald-400" />
                      ) : (
                        <Circle aria-hidden className="size-4 text-slate-400" />
                      )}
                      {step.done ? (
                        <span className="text-slate-500 line-through dark:text-slate-400">
                          {step.label}
                          <span className="sr-only"> (done)</span>
                        </span>
                      ) : (
                        <Link to="/profile/edit" className="font-medium text-brand-ink hover:underline">
                          {step.label}
                        </Link>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        </section>
      ) : null}
      {activity ? <CardActivity data={activity} /> : null}
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {cards.map(({ to, title, text, Icon }) => (
          <li key={title}>
            <Link
              to={to}
              className="group flex h-full flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md dark:border-slate-800 dark:bg-slate-900"
            >
              <span className="flex size-11 items-center justify-center rounded-xl bg-brand/10 text-brand-ink">
                <Icon aria-hidden className="size-5" />
              </span>
              <span className="text-lg font-semibold">{title}</span>
              <span className="flex-1 text-sm text-slate-600 dark:text-slate-400">{text}</span>
              <ArrowRight aria-hidden className="size-4 text-brand-ink transition group-hover:translate-x-1" />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
