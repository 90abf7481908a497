import { UserRoundMinus, UserX } from "lucide-react";
import { isRouteErrorResponse } from "react-router";
import { StatusPage } from "~/components/status-page";

/** A card that does not exist: a member goes on to `member`, a visitor is never sent to sign in. */
export function NotFoundCard({ text, member }: { text: string; member: { to: string; label: string } }) {
  return (
    <StatusPage icon={<UserX aria-hidden className="size-7" />} title="Profile not found" member={member}>
      <p>{text}</p>
    </StatusPage>
  );
}

/**
 * A card its company switched off (410 Gone): said calmly, without who it was
 * or why; a member goes on to `member`, a visitor to the company's website.
 */
export function GoneCard({ member }: { member: { to: string; label: string } }) {
  return (
    <StatusPage
      icon={<UserRoundMinus aria-hidden className="size-7" />}
      title="This card is no longer active"
      member={member}
    >
      <p>
        The person this card belonged to is no longer reachable through it. The company can put you in touch with the
        right person.
      </p>
    </StatusPage>
  );
}

/** The document title of a card page that shows no card. */
export function missingCardTitle(error: unknown) {
  return isRouteErrorResponse(error) && error.status === 410 ? "Card no longer active" : "Profile not found";
}
