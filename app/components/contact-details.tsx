import { BriefcaseBusiness, Globe, Languages, type LucideIcon, Mail, MapPin, Phone } from "lucide-react";
import { Fragment, type ReactNode } from "react";
import { CARD_FIELDS, type CardDetails, type CardFieldKey } from "~/lib/card-fields";
import { useT } from "~/lib/i18n/intl";
import { telHref } from "~/lib/phone";
import { addressLabel, LINK_ICONS, linkLabel } from "./card-links";

export type ContactField = {
  [Key in CardFieldKey]: (typeof CARD_FIELDS)[Key]["page"] extends "contact" ? Key : never;
}[CardFieldKey];

/**
 * How the card page's contact list shows each field it holds (`page: "contact"`
 * in the registry), in the order it lists them: its icon, and its label where
 * it is shorter than the field's. A contact field without a row fails the type check.
 */
const CONTACT_ROWS: Record<ContactField, { icon: LucideIcon; label?: string }> = {
  email: { icon: Mail },
  phone: { icon: Phone },
  office: { icon: MapPin },
  languages: { icon: Languages },
  linkedinUrl: { icon: BriefcaseBusiness, label: "LinkedIn" },
  links: { icon: Globe },
};

/** The kinds of link named by a word (the others by a brand's name, the same in every language). */
const LINK_WORDS = { website: "card.website", booking: "card.bookMeeting", other: "card.otherLink" } as const;

const CONTACT_FIELDS = Object.keys(CONTACT_ROWS) as ContactField[];

/** A contact field's icon, and the label it goes by where the field's own is longer. */
export function contactRow(key: ContactField): { icon: LucideIcon; label: string } {
  const { icon, label = CARD_FIELDS[key].label } = CONTACT_ROWS[key];
  return { icon, label };
}

/** The rows of the card page's contact list, each detail the way its kind opens: a message, a call, a site. */
export function ContactDetails({ card, website }: { card: CardDetails; website: string | null }) {
  const t = useT();
  return (
    <>
      {CONTACT_FIELDS.flatMap((key) => {
        const { icon: Icon } = CONTACT_ROWS[key];
        // Each contact field's label is in the catalogs (`field.<key>`): one missing fails the type check.
        const label = t(`field.${key}`);
        const value = card[key];
        if (Array.isArray(value)) {
          return value.map((link) => {
            const LinkIcon = LINK_ICONS[link.kind];
            return (
              <ContactRow
                key={`${key} ${link.kind} ${link.url}`}
                icon={<LinkIcon aria-hidden className="size-5" />}
                label={link.kind in LINK_WORDS ? t(LINK_WORDS[link.kind as keyof typeof LINK_WORDS]) : linkLabel(link)}
                href={link.url}
                text={addressLabel(link.url)}
                external
              />
            );
          });
        }
        if (!value) return [];
        const kind = CARD_FIELDS[key].kind;
        const href =
          kind === "email" ? `mailto:${value}` : kind === "phone" ? telHref(value) : kind === "url" ? value : undefined;
        return [
          <ContactRow
            key={key}
            icon={<Icon aria-hidden className="size-5" />}
            label={label}
            href={href}
            text={kind === "url" ? addressLabel(value) : value}
            external={kind === "url"}
          />,
        ];
      })}
      {website ? (
        <ContactRow
          icon={<Globe aria-hidden className="size-5" />}
          label={t("card.companyWebsite")}
          href={website}
          text={addressLabel(website)}
          external
        />
      ) : null}
    </>
  );
}

/** An address with line-break opportunities after its @, dots and slashes, so a long one wraps where it reads best. */
function breakable(text: string): ReactNode {
  return text.split(/(?<=[@./])/).map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

function ContactRow({
  icon,
  label,
  href,
  text,
  external,
}: {
  icon: ReactNode;
  label: string;
  /** Where the row leads; a row without one (an office, languages) is text only. */
  href?: string;
  text: string;
  external?: boolean;
}) {
  const row = "flex items-center gap-4 px-4 py-3";
  const content = (
    <>
      <span
        className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-tint text-brand-ink"
        data-testid="icon-tile"
      >
        {icon}
      </span>
      <span className="min-w-0">
        <span className="block text-xs text-slate-500 dark:text-slate-400">{label}</span>
        {/* Addresses and numbers keep their own direction on a right-to-left page. */}
        <span className="block font-medium wrap-anywhere" data-testid="contact-text" dir="auto">
          {breakable(text)}
        </span>
      </span>
    </>
  );
  if (!href) {
    return (
      <li>
        <div className={row}>{content}</div>
      </li>
    );
  }
  return (
    <li>
      <a
        href={href}
        {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
        className={`${row} transition hover:bg-slate-50 dark:hover:bg-slate-800/60`}
      >
        {content}
      </a>
    </li>
  );
}
