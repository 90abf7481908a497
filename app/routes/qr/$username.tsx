import { data } from "react-router";
import { getCardByUsername } from "~/.server/cards";
import { NotFoundCard } from "~/components/not-found-card";
import { ButtonLink } from "~/components/ui/button";
import { fullName } from "~/lib/names";
import type { Route } from "./+types/$username";

export function meta({ data: loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.card ? `${fullName(loaderData.card)} · QR` : "Profile not found" }];
}

export async function loader({ params }: Route.LoaderArgs) {
  const card = await getCardByUsername(params.username);
  if (!card) return data({ card: null }, 404);
  return { card: { firstName: card.firstName, lastName: card.lastName, username: card.username } };
}

export default function MobileQr({ loaderData }: Route.ComponentProps) {
  const { card } = loaderData;
  if (!card) {
    return <NotFoundCard text="The profile you're looking for doesn't exist." linkLabel="Back" to="/" />;
  }
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-6 p-6 text-center">
      <h1 className="text-2xl font-semibold">{fullName(card)}</h1>
      <p className="text-slate-600 dark:text-slate-400">Scan to connect with {card.firstName}</p>
      <ButtonLink to={`/profile/${card.username}`}>View Full Profile</ButtonLink>
    </main>
  );
}
