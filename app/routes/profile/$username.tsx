import { Mail, Phone } from "lucide-react";
import { data } from "react-router";
import { getCardByUsername } from "~/.server/cards";
import { Avatar } from "~/components/avatar";
import { NotFoundCard } from "~/components/not-found-card";
import { mediaUrl } from "~/lib/media";
import { fullName } from "~/lib/names";
import type { Route } from "./+types/$username";

export function meta({ data: loaderData }: Route.MetaArgs) {
  if (!loaderData?.card) return [{ title: "Profile not found" }];
  return [{ title: fullName(loaderData.card) }];
}

export async function loader({ params }: Route.LoaderArgs) {
  const card = await getCardByUsername(params.username);
  if (!card) return data({ card: null }, 404);
  const { userId: _owner, ...visible } = card;
  return { card: { ...visible, photoUrl: mediaUrl(card.profilePhoto) } };
}

export default function PublicCard({ loaderData }: Route.ComponentProps) {
  const { card } = loaderData;
  if (!card) {
    return (
      <NotFoundCard
        text="The profile you're looking for doesn't exist or has been removed."
        linkLabel="Back to Directory"
        to="/directory"
      />
    );
  }
  return (
    <main className="mx-auto max-w-xl p-4 sm:p-8">
      <article className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <div
          className="brand-gradient h-28"
          style={card.brand ? ({ "--from": card.brand.primaryColor, "--to": card.brand.secondaryColor } as React.CSSProperties) : undefined}
        />
        <div className="-mt-12 space-y-4 p-6">
          <Avatar person={card} photoUrl={card.photoUrl} size="lg" className="ring-4 ring-white dark:ring-slate-900" />
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">{fullName(card)}</h1>
            {card.title ? <p className="text-slate-600 dark:text-slate-400">{card.title}</p> : null}
            <p className="text-sm text-slate-500">@{card.username}</p>
          </div>
          {card.bio ? <p className="whitespace-pre-line text-slate-700 dark:text-slate-300">{card.bio}</p> : null}
          <ul className="space-y-2 text-sm">
            <li>
              <a href={`mailto:${card.email}`} className="inline-flex items-center gap-2 text-brand-ink hover:underline">
                <Mail aria-hidden className="size-4" /> {card.email}
              </a>
            </li>
            {card.phone ? (
              <li>
                <a href={`tel:${card.phone}`} className="inline-flex items-center gap-2 text-brand-ink hover:underline">
                  <Phone aria-hidden className="size-4" /> {card.phone}
                </a>
              </li>
            ) : null}
          </ul>
        </div>
      </article>
    </main>
  );
}
