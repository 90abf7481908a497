import { BriefcaseBusiness, Eye, Mail, MapPin, Network, Phone } from "lucide-react";
import { Link } from "react-router";
import { Avatar } from "~/components/avatar";
import { BrandBadge, brandScope } from "~/components/brand-badge";
import { buttonClasses } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { mediaUrl } from "~/lib/media";
import { fullName } from "~/lib/names";
import { telHref } from "~/lib/phone";
import { viewsWord } from "~/lib/views";

export type DirectoryPerson = {
  id: string;
  firstName: string;
  lastName: string;
  username: string;
  title: string | null;
  department: string | null;
  office: string | null;
  pronouns: string | null;
  email: string | null;
  phone: string | null;
  bio: string | null;
  linkedinUrl: string | null;
  profilePhoto: string | null;
  viewCount: number;
  brand: { name: string; primaryColor: string; secondaryColor: string } | null;
  claimed?: boolean;
};

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

/** Department and office on one line, each with its icon; nothing when neither is shown. */
function WorkPlace({ person, className }: { person: DirectoryPerson; className?: string }) {
  if (!person.department && !person.office) return null;
  return (
    <p className={cn("flex min-w-0 items-center gap-3 text-sm text-slate-500 dark:text-slate-400", className)}>
      {person.department ? (
        <span className="flex min-w-0 items-center gap-1">
          <Network aria-hidden className="size-3.5 shrink-0" />
          <span className="sr-only">Department: </span>
          <span className="truncate" data-testid="department">
            {person.department}
          </span>
        </span>
      ) : null}
      {person.office ? (
        <span className="flex min-w-0 items-center gap-1">
          <MapPin aria-hidden className="size-3.5 shrink-0" />
          <span className="sr-only">Office: </span>
          <span className="truncate">{person.office}</span>
        </span>
      ) : null}
    </p>
  );
}

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
        scope.className,
      )}
      style={scope.style}
    >
      <div className="brand-gradient h-16" />
      <div className="flex flex-1 flex-col px-5 pb-5">
        <div className="-mt-8 flex items-end justify-between">
          <div className="relative">
            <Avatar
              person={person}
              photoUrl={mediaUrl(person.profilePhoto)}
              size="lg"
              className="ring-4 ring-white dark:ring-slate-900"
            />
            <ClaimDot claimed={person.claimed} className="absolute right-1 bottom-1" />
          </div>
          <span className="inline-flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
            <Eye aria-hidden className="size-3.5" />
            {views(person.viewCount)}
          </span>
        </div>
        <h3 className="mt-3 truncate text-lg font-semibold">
          {name}
          {person.pronouns ? (
            <span className="ml-1.5 text-sm font-normal text-slate-500 dark:text-slate-400">({person.pronouns})</span>
          ) : null}
        </h3>
        {person.title ? <p className="truncate text-sm text-slate-600 dark:text-slate-300">{person.title}</p> : null}
        <WorkPlace person={person} className="mt-0.5" />
        <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
          <span className="truncate">@{person.username}</span>
          <BrandBadge brand={person.brand} />
        </div>
        {person.bio ? (
          <p className="mt-3 line-clamp-2 text-sm text-slate-600 dark:text-slate-300">{person.bio}</p>
        ) : null}
        <ul className="mt-3 space-y-1 text-sm">
          {person.email ? (
            <li className="flex min-w-0 items-center gap-2">
              <Mail aria-hidden className="size-4 shrink-0 text-slate-400" />
              <a
                href={`mailto:${person.email}`}
                className="truncate text-slate-700 hover:underline dark:text-slate-300"
              >
                {person.email}
              </a>
            </li>
          ) : null}
          {person.phone ? (
            <li className="flex items-center gap-2">
              <Phone aria-hidden className="size-4 shrink-0 text-slate-400" />
              <a href={telHref(person.phone)} className="text-slate-700 hover:underline dark:text-slate-300">
                {person.phone}
              </a>
            </li>
          ) : null}
          {person.linkedinUrl ? (
            <li className="flex items-center gap-2">
              <BriefcaseBusiness aria-hidden className="size-4 shrink-0 text-slate-400" />
              <a
                href={person.linkedinUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="text-slate-700 hover:underline dark:text-slate-300"
              >
                LinkedIn<span className="sr-only"> profile of {name}</span>
              </a>
            </li>
          ) : null}
        </ul>
        <div className="mt-auto pt-4">
          <Link to={cardHref(person)} className={buttonClasses("secondary", "sm", "w-full")}>
            View Card<span className="sr-only"> of {name}</span>
          </Link>
        </div>
      </div>
    </article>
  );
}

export function ProfileListRow({ person }: { person: DirectoryPerson }) {
  const name = fullName(person);
  const scope = brandScope(person.brand);
  return (
    <li
      className={cn("flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:gap-4 sm:px-6", scope.className)}
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
            @{person.username}
            {person.title ? ` · ${person.title}` : ""}
          </p>
          <WorkPlace person={person} />
          {person.bio ? (
            <p className="mt-1 line-clamp-1 text-sm text-slate-600 dark:text-slate-300">{person.bio}</p>
          ) : null}
        </div>
      </div>
      <div className="flex min-w-0 flex-col text-sm sm:w-64">
        {person.email ? (
          <a href={`mailto:${person.email}`} className="truncate text-slate-700 hover:underline dark:text-slate-300">
            {person.email}
          </a>
        ) : null}
        {person.phone ? <span className="text-slate-500 dark:text-slate-400">{person.phone}</span> : null}
        {person.linkedinUrl ? (
          <a
            href={person.linkedinUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="text-slate-500 hover:underline dark:text-slate-400"
          >
            LinkedIn<span className="sr-only"> profile of {name}</span>
          </a>
        ) : null}
      </div>
      <div className="flex items-center justify-between gap-4 sm:justify-end">
        <span className="text-sm whitespace-nowrap text-slate-500 dark:text-slate-400">{views(person.viewCount)}</span>
        <Link to={cardHref(person)} className={buttonClasses("secondary", "sm")}>
          View Card<span className="sr-only"> of {name}</span>
        </Link>
      </div>
    </li>
  );
}
