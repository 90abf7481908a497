import { Globe, Mail, Phone, UserRoundMinus, UserX } from "lucide-react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { hostOf, StatusPage } from "~/components/status-page";
import { plainMessage, useT } from "~/lib/i18n/intl";

/** A card that does not exist: a member goes on to `member`, a visitor is never sent to sign in. */
function NotFoundCard({ text, member }: { text: string; member: { to: string; label: string } }) {
  const t = useT();
  return (
    <StatusPage icon={<UserX aria-hidden className="size-7" />} title={t("missing.notFoundTitle")} member={member}>
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
function GoneCard({ member }: { member: { to: string; label: string } }) {
  const error = useRouteError();
  const t = useT();
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
            alt={contact.name ? t("card.logo", { brand: contact.name }) : ""}
            className="size-full rounded-full bg-white object-contain p-2"
          />
        ) : (
          <UserRoundMinus aria-hidden className="size-7" />
        )
      }
      title={t("missing.goneTitle")}
      member={member}
    >
      <p>
        {t("missing.goneText")}{" "}
        {ways.length > 0 && contact?.name
          ? t("missing.companyCanHelp", { company: contact.name })
          : ways.length > 0
            ? t("missing.theCompanyCanHelpWith")
            : t("missing.theCompanyCanHelp")}
      </p>
      {ways.length > 0 ? (
        <ul aria-label={t("missing.contactCompany")} className="mt-4 flex flex-col items-center gap-2">
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

/** The document title of a card page that shows no card, in the page's language. */
export function missingCardTitle(error: unknown, matches: Parameters<typeof plainMessage>[0]) {
  return plainMessage(
    matches,
    isRouteErrorResponse(error) && error.status === 410 ? "missing.goneDocumentTitle" : "missing.notFoundTitle",
  );
}

/**
 * A card page's error: a card that does not exist, or one switched off, in the
 * page's language (`text` says what is missing); any other error as every page shows it.
 */
export function MissingCard({ text }: { text: "card.notFound" | "card.notFoundShort" }) {
  const t = useT();
  const member = { to: "/directory", label: t("card.backToDirectory") };
  return (
    <RouteErrorBoundary
      gone={<GoneCard member={member} />}
      notFound={<NotFoundCard text={t(text)} member={member} />}
    />
  );
}
