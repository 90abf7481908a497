import { Eye, type LucideIcon, MapPin, Network } from "lucide-react";
import { Link } from "react-router";
import { Avatar } from "~/components/avatar";
import { BrandBadge, brandScope } from "~/components/brand-badge";
import { contactRow } from "~/components/contact-details";
import { buttonClasses } from "~/components/ui/button";
import { CARD_FIELD_KEYS, CARD_FIELDS, type TileField } from "~/lib/card-fields";
import { cn } from "~/lib/cn";
import { mediaUrl } from "~/lib/media";
import { fullName } from "~/lib/names";
import { telHref } from "~/lib/phone";
import { viewsWord } from "~/lib/views";

/** A person as the directory lists them: who they are, and each field the tile shows (`tile` in the registry). */
export type DirectoryPerson = {
  id: string;
  firstName: string;
  lastName: string;
  username: string;
  profilePhoto: string | null;
  viewCount: number;
  brand: { name: string; primaryColor: string; secondaryColor: string } | null;
  claimed?: boolean;
} & { [Key in TileField]: string | null };

/**
 * Where the tile shows each of its fields: beside the name, under it, on the
 * line of where someone works, in its contact list (each the way its kind
 * opens, with the card page's icon), or as the paragraph about them. A tile
 * field without a place fails the type check.
 */
const TILE_PLACES = {
  pronouns: "name",
  title: "role",
  department: "workplace",
  office: "workplace",
  email: "contact",
  phone: "contact",
  linkedinUrl: "contact",
  bio: "about",
} as const satisfies Record<TileField, "name" | "role" | "workplace" | "contact" | "about">;

type TilePlace = (typeof TILE_PLACES)[TileField];

type FieldAt<Place extends TilePlace> = {
  [Key in TileField]: (typeof TILE_PLACES)[Key] extends Place ? Key : never;
}[TileField];

/** The tile's fields shown in one place, in the registry's order. */
function fieldsAt<Place extends TilePlace>(place: Place): FieldAt<Place>[] {
  return CARD_FIELD_KEYS.filter(
    (key): key is FieldAt<Place> => CARD_FIELDS[key].tile && TILE_PLACES[key as TileField] === place,
  );
}

const WORKPLACE_ICONS: Record<FieldAt<"workplace">, LucideIcon> = { department: Network, office: MapPin };

/** Where 'View Card' leads: the card, marked as a directory visit (counted once, by the card). */
function cardHref(person: { username: string }) {
  return `/profile/${encodeURIComponent(person.username)}?src=directory`;
}

/** The administrator's per-card indicator: green claimed, orange unclaimed. */
function ClaimDot({ claimed, className }: { claimed: boolean | undefined; className?: string }) {
  if (claimed === undefined) return null;
  return (
    <span
      title={claimed ? "Claimed" : "Unclaimed"}
      className={cn(
        "inline-block size-3 rounded-full ring-2 ring-white dark:ring-slate-900",
        claimed ? "bg-emerald-500" : "bg-orange-500",
        className,
      )}
    >
      <span className="sr-only">{claimed ? "Claimed" : "Unclaimed"}</span>
    </span>
  );
}

/** Where someone works (department, office) on one line, each with its icon; nothing when none is shown. */
function WorkPlace({ person, className }: { person: DirectoryPerson; className?: string }) {
  const shown = fieldsAt("workplace").filter((key) => person[key]);
  if (shown.length === 0) return null;
  return (
    <p className={cn("flex min-w-0 items-center gap-3 text-sm text-slate-500 dark:text-slate-400", className)}>
      {shown.map((key) => {
        const Icon = WORKPLACE_ICONS[key];
        return (
          <span key={key} className="flex min-w-0 items-center gap-1">
            <Icon aria-hidden className="size-3.5 shrink-0" />
            <span className="sr-only">{CARD_FIELDS[key].label}: </span>
            <span className="truncate" data-testid={key}>
              {person[key]}
            </span>
          </span>
        );
      })}
    </p>
  );
}

/** A contact detail the way its kind opens: a message, a call, a site (named, since its address says little). */
function ContactLink({
  field,
  value,
  name,
  className,
}: {
  field: FieldAt<"contact">;
  value: string;
  name: string;
  className: string;
}) {
  const { kind } = CARD_FIELDS[field];
  if (kind === "url") {
    return (
      <a href={value} target="_blank" rel="noopener noreferrer" className={className}>
        {contactRow(field).label}
        <span className="sr-only"> profile of {name}</span>
      </a>
    );
  }
  const href = kind === "email" ? `mailto:${value}` : kind === "phone" ? telHref(value) : undefined;
  return href ? (
    <a href={href} className={className}>
      {value}
    </a>
  ) : (
    <span className={className}>{value}</span>
  );
}

/**
 * On a phone a row's View Card link lies over the whole row, its words left to
 * screen readers; its focus outline is drawn inside the row, which clips what
 * lies outside it.
 */
const ROW_LINK =
  "max-sm:absolute max-sm:inset-0 max-sm:h-auto max-sm:border-0 max-sm:bg-transparent max-sm:text-transparent max-sm:shadow-none max-sm:hover:bg-transparent max-sm:focus-visible:outline-offset-[-3px] max-sm:dark:bg-transparent max-sm:dark:text-transparent max-sm:dark:hover:bg-transparent";

function views(count: number) {
  return `${count.toLocaleString("en")} ${viewsWord(count)}`;
}

export function ProfileGridCard({ person }: { person: DirectoryPerson }) {
  const name = fullName(person);
  const scope = brandScope(person.brand);
  return (
    <article
      className={cn(
        "flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md dark:border-slate-800 dark:bg-slate-900",
        // On a phone, a row of a phone book: photo, name, title and brand, the whole row opening the card.
        "max-sm:relative max-sm:rounded-xl max-sm:shadow-none",
        scope.className,
      )}
      style={scope.style}
    >
      <div className="brand-gradient h-16 max-sm:hidden" />
      <div className="flex flex-1 flex-col px-5 pb-5 max-sm:flex-row max-sm:items-center max-sm:gap-3 max-sm:px-3 max-sm:py-2">
        <div className="-mt-8 flex items-end justify-between max-sm:mt-0 max-sm:shrink-0">
          <div className="relative">
            <Avatar
              person={person}
              photoUrl={mediaUrl(person.profilePhoto)}
              size="lg"
              className="ring-4 ring-white max-sm:size-11 max-sm:text-base max-sm:ring-0 dark:ring-slate-900"
            />
            <ClaimDot claimed={person.claimed} className="absolute right-1 bottom-1" />
          </div>
          <span className="inline-flex items-center gap-1 text-xs text-slate-500 max-sm:hidden dark:text-slate-400">
            <Eye aria-hidden className="size-3.5" />
            {views(person.viewCount)}
          </span>
        </div>
        <div className="min-w-0 max-sm:flex-1">
          <h3 className="mt-3 truncate text-lg font-semibold max-sm:mt-0 max-sm:text-base">
            {name}
            {fieldsAt("name").map((key) =>
              person[key] ? (
                <span key={key} className="ml-1.5 text-sm font-normal text-slate-500 dark:text-slate-400">
                  ({person[key]})
                </span>
              ) : null,
            )}
          </h3>
          {fieldsAt("role").map((key) =>
            person[key] ? (
              <p key={key} className="truncate text-sm text-slate-600 dark:text-slate-300">
                {person[key]}
              </p>
            ) : null,
          )}
          <WorkPlace person={person} className="mt-0.5 max-sm:hidden" />
          <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-500 max-sm:mt-0.5 dark:text-slate-400">
            <span className="truncate max-sm:hidden">@{person.username}</span>
            <BrandBadge brand={person.brand} />
          </div>
          {fieldsAt("about").map((key) =>
            person[key] ? (
              <p key={key} className="mt-3 line-clamp-2 text-sm text-slate-600 max-sm:hidden dark:text-slate-300">
                {person[key]}
              </p>
            ) : null,
          )}
          <ul className="mt-3 space-y-1 text-sm max-sm:hidden">
            {fieldsAt("contact").map((key) => {
              const value = person[key];
              if (!value) return null;
              const Icon = contactRow(key).icon;
              return (
                <li key={key} className="flex min-w-0 items-center gap-2">
                  <Icon aria-hidden className="size-4 shrink-0 text-slate-400" />
                  <ContactLink
                    field={key}
                    value={value}
                    name={name}
                    className="truncate text-slate-700 hover:underline dark:text-slate-300"
                  />
                </li>
              );
            })}
          </ul>
        </div>
        <div className="mt-auto pt-4 max-sm:contents">
          <Link
            to={cardHref(person)}
            className={buttonClasses("secondary", "sm", cn("w-full max-sm:rounded-xl", ROW_LINK))}
          >
            View Card<span className="sr-only"> of {name}</span>
          </Link>
        </div>
      </div>
    </article>
  );
}

export function ProfileListRow({ person, anchor }: { person: DirectoryPerson; anchor?: string }) {
  const name = fullName(person);
  const scope = brandScope(person.brand);
  return (
    <li
      id={anchor}
      className={cn(
        "flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:gap-4 sm:px-6",
        // On a phone, a row of a phone book: photo, name, brand and title, the whole row opening the card.
        "max-sm:relative max-sm:py-2.5",
        // Where the A–Z index leads: clear of the top bar and the search above it.
        "scroll-mt-52",
        scope.className,
      )}
      style={scope.style}
    >
      <div className="flex min-w-0 flex-1 items-center gap-4">
        <div className="relative">
          <Avatar person={person} photoUrl={mediaUrl(person.profilePhoto)} size="md" />
          <ClaimDot claimed={person.claimed} className="absolute -right-0.5 -bottom-0.5" />
        </div>
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="truncate font-semibold">{name}</h3>
            <BrandBadge brand={person.brand} />
          </div>
          <p className="truncate text-sm text-slate-500 dark:text-slate-400">
            <span className="max-sm:hidden">@{person.username}</span>
            {fieldsAt("role").map((key) =>
              person[key] ? (
                <span key={key}>
                  <span className="max-sm:hidden"> · </span>
                  {person[key]}
                </span>
              ) : null,
            )}
          </p>
          <WorkPlace person={person} className="max-sm:hidden" />
          {fieldsAt("about").map((key) =>
            person[key] ? (
              <p key={key} className="mt-1 line-clamp-1 text-sm text-slate-600 max-sm:hidden dark:text-slate-300">
                {person[key]}
              </p>
            ) : null,
          )}
        </div>
      </div>
      <div className="flex min-w-0 flex-col text-sm max-sm:hidden sm:w-64">
        {fieldsAt("contact").map((key) => {
          const value = person[key];
          if (!value) return null;
          return (
            <ContactLink
              key={key}
              field={key}
              value={value}
              name={name}
              className="truncate text-slate-600 hover:underline dark:text-slate-300"
            />
          );
        })}
      </div>
      <div className="flex items-center justify-between gap-4 max-sm:contents sm:justify-end">
        <span className="text-sm whitespace-nowrap text-slate-500 max-sm:hidden dark:text-slate-400">
          {views(person.viewCount)}
        </span>
        <Link to={cardHref(person)} className={buttonClasses("secondary", "sm", ROW_LINK)}>
          View Card<span className="sr-only"> of {name}</span>
        </Link>
      </div>
    </li>
  );
}
