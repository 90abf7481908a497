import { Globe, Mail, Phone, UserRoundMinus, UserX } from "lucide-react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { hostOf, StatusPage } from "~/components/status-page";

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
 * or why, with how to reach the company instead (its brand's or the site's
 * email, phone and website); a member goes on to `member`, a visitor to the
 * company's website.
 */
export function GoneCard({ member }: { member: { to: string; label: string } }) {
  const error = useRouteError();
  const contact = isRouteErrorResponse(error) ? contactOf(error.data) : null;
  const ways = contact
    ? [
        contact.email ? { href: `mailto:${contact.email}`, label: contact.email, Icon: Mail } : null,
        contact.phone
          ? { href: `tel:${contact.phone.replace(/[^+\d]/g, "")}`, label: contact.phone, Icon: Phone }
          : null,
        contact.website ? { href: contact.website, label: hostOf(contact.website), Icon: Globe } : null,
      ].filter((way) => way !== null)
    : [];
  return (
    <StatusPage
      icon={
        contact?.logoUrl ? (
          // The brand the card belonged to, where the card was.
          <img
            src={contact.logoUrl}
            alt={contact.name ? `${contact.name} logo` : ""}
            className="size-full rounded-full bg-white object-contain p-2"
          />
        ) : (
          <UserRoundMinus aria-hidden className="size-7" />
        )
      }
      title="This card is no longer active"
      member={member}
    >
      <p>
        The person this card belonged to is no longer reachable through it.{" "}
        {ways.length > 0
          ? `${contact?.name ?? "The company"} can put you in touch with the right person:`
          : "The company can put you in touch with the right person."}
      </p>
      {ways.length > 0 ? (
        <ul aria-label="Contact the company" className="mt-4 flex flex-col items-center gap-2">
          {ways.map(({ href, label, Icon }) => (
            <li key={href}>
              <a
                href={href}
                className="inline-flex items-center gap-2 font-medium text-slate-900 underline-offset-4 hover:underline dark:text-white"
              >
                <Icon aria-hidden className="size-4 text-slate-500 dark:text-slate-400" />
                {label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </StatusPage>
  );
}

type Contact = {
  name: string | null;
  email: string | null;
  phone: string | null;
  website: string | null;
  logoUrl?: string | null;
};

/** The company's contact a 410 answer carries, when it carries one. */
function contactOf(data: unknown): Contact | null {
  if (!data || typeof data !== "object" || !("contact" in data)) return null;
  const contact = (data as { contact: unknown }).contact;
  return contact && typeof contact === "object" ? (contact as Contact) : null;
}

/** The document title of a card page that shows no card. */
export function missingCardTitle(error: unknown) {
  return isRouteErrorResponse(error) && error.status === 410 ? "Card no longer active" : "Profile not found";
}
