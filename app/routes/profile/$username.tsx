import {
  Building2,
  CalendarDays,
  Eye,
  Handshake,
  Network,
  Pencil,
  QrCode,
  Send,
  ShieldCheck,
  Users,
} from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { useIntl } from "react-intl";
import { Link } from "react-router";
import { countView, uncommittedViews, viewSourceOf } from "~/.server/analytics/views";
import { getOptionalViewer } from "~/.server/http/authz";
import { reusableCount } from "~/.server/http/cached-render";
import { cardMissing } from "~/.server/http/card-gone";
import { visitOf } from "~/.server/http/http";
import { cardLocale, pageLanguage } from "~/.server/http/language";
import { translate } from "~/.server/platform/i18n";
import { getSiteSettings, visitorsSeeStats } from "~/.server/platform/site-settings";
import { cardForViewer, getCardByUsername } from "~/.server/profiles/get-card";
import { reportingLines } from "~/.server/profiles/managers";
import { ogVersion } from "~/.server/profiles/og-image";
import { brandQrLogo, CARD_QR, cardUrl, qrSvg, qrTargetUrl } from "~/.server/profiles/qr";
import { cardFileName } from "~/.server/profiles/vcard";
import { getFieldPolicies } from "~/.server/profiles/visibility";
import { wayBack } from "~/.server/profiles/way-back";
import { Avatar } from "~/components/avatar";
import { BrandBadge, brandScope } from "~/components/brand-badge";
import { CopyLinkButton, DownloadQrLink, SaveContactButton, ShareButton } from "~/components/card-actions";
import { ContactDetails } from "~/components/contact-details";
import { FallbackImage } from "~/components/fallback-image";
import { MissingCard, missingCardTitle } from "~/components/not-found-card";
import { ThemeSwitch } from "~/components/theme-switch";
import { buttonClasses } from "~/components/ui/button";
import { ViewsWord } from "~/components/views-word";
import { shortBackLabel, WayBackLink } from "~/components/way-back";
import { detailsOf } from "~/lib/card-fields";
import { useRich, useT } from "~/lib/i18n/intl";
import { LOCALES } from "~/lib/i18n/locales";
import { localeFromQuery, withLanguage } from "~/lib/i18n/negotiate";
import { mediaUrl } from "~/lib/media";
import { fullName, greetingName } from "~/lib/names";
import { decide } from "~/lib/permissions";
import { useLiveData } from "~/lib/realtime";
import type { Route } from "./+types/$username";

export function meta({ data: loaderData, error, matches }: Route.MetaArgs) {
  const card = loaderData?.card;
  if (!card) return [{ title: missingCardTitle(error, matches) }, { name: "robots", content: "noindex" }];
  const name = fullName(card);
  const headline = [card.title, card.brand?.name].filter(Boolean).join(" · ");
  const description = [headline, card.bio].filter(Boolean).join(" — ").slice(0, 200) || loaderData.fallbackDescription;
  const title = headline ? `${name} · ${headline}` : name;
  return [
    { title },
    { name: "description", content: description },
    { property: "og:type", content: "profile" },
    // The language the preview speaks, as link previews name it (de_DE's form: language_REGION or language).
    { property: "og:locale", content: loaderData.locale.replace("-", "_") },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: loaderData.links.card },
    { property: "og:image", content: loaderData.links.ogImage },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "profile:first_name", content: card.firstName },
    { property: "profile:last_name", content: card.lastName },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: loaderData.links.ogImage },
    { tagName: "link", rel: "canonical", href: loaderData.links.canonical },
    // The card in each language, for search engines: a link may name one (`?lang=`).
    ...LOCALES.map((locale) => ({
      tagName: "link",
      rel: "alternate",
      hrefLang: locale,
      href: `${loaderData.links.card}?lang=${locale}`,
    })),
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: loaderData.links.card },
    // The owner may put their card on their phone's home screen.
    ...(loaderData.viewer?.isOwner
      ? [
          { tagName: "link", rel: "manifest", href: `${loaderData.links.base}/manifest.webmanifest` },
          { tagName: "link", rel: "apple-touch-icon", href: `${loaderData.links.base}/icon-180.png` },
        ]
      : []),
  ];
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const [viewer, stored, site, policies] = await Promise.all([
    getOptionalViewer(request),
    getCardByUsername(params.username),
    getSiteSettings(),
    getFieldPolicies(),
  ]);
  if (!stored) return cardMissing(params.username, "page");
  // Only what this viewer may see leaves the server (docs/decisions/028-card-fields-and-visibility.md).
  const card = await cardForViewer(stored, viewer, policies);
  const back = wayBack({ signedIn: viewer !== null, brand: card.brand, site });

  // Only a page load counts as a visit (a HEAD request does not). The view is
  // written with the next batch; the page already shows it.
  const source = viewSourceOf(new URL(request.url));
  const explicit = localeFromQuery(new URL(request.url));
  if (request.method === "GET") {
    countView({
      visit: visitOf(request),
      profileId: card.id,
      ownerUserId: card.userId,
      viewerUserId: viewer?.user.id ?? null,
      source,
    });
  }
  // The company decides whether visitors see the numbers; whoever is signed in does.
  // Hidden numbers are left out of the page and its data, not only out of sight.
  const showStats = viewer !== null || (await visitorsSeeStats());
  const base = `/profile/${encodeURIComponent(card.username)}`;
  const absolute = cardUrl(card.username);
  const locale = cardLocale(request, stored.brand, site);
  return {
    locale,
    language: pageLanguage(request, locale, site),
    // Said in the page's language when the card has neither a title nor a bio to describe it.
    fallbackDescription: translate(locale, "card.description", { name: fullName(card) }),
    card: {
      id: card.id,
      firstName: card.firstName,
      lastName: card.lastName,
      username: card.username,
      ...detailsOf(card),
      photoUrl: mediaUrl(card.profilePhoto),
      viewCount: showStats ? reusableCount(context, card.id, card.viewCount + uncommittedViews(card.id)) : null,
      // A card nobody has claimed yet has no member to date.
      memberSince: showStats && card.userId !== null ? card.createdAt.toISOString() : null,
      brand: card.brand
        ? {
            name: card.brand.name,
            primaryColor: card.brand.primaryColor,
            secondaryColor: card.brand.secondaryColor,
            coverUrl: mediaUrl(card.brand.coverImage),
            logoUrl: mediaUrl(card.brand.logo),
            website: card.brand.website,
          }
        : null,
    },
    viewer: viewer ? { isOwner: viewer.user.id === card.userId } : null,
    // Who reports to whom is for colleagues: a visitor's page never holds it.
    team: viewer ? await reportingLines(card.id, stored.managerId) : null,
    back,
    // Claim status is for administrators only: others never receive it.
    admin: decide(viewer, "read:claim-status", { brandId: card.brand?.id ?? null })
      ? { claimed: card.userId !== null }
      : null,
    qr: await qrSvg(qrTargetUrl(card.username), { ...CARD_QR, logo: await brandQrLogo(card.brand) }),
    links: {
      base,
      card: absolute,
      // A page in the language a link named is its own page.
      canonical: explicit ? `${absolute}?lang=${explicit}` : absolute,
      vcard: `${base}/contact.vcf`,
      vcardName: cardFileName(card, ".vcf"),
      qrPng: `${base}/qr.png`,
      qrPngName: cardFileName(card, "_QR.png"),
      mobileQr: withLanguage(`/qr/${encodeURIComponent(card.username)}`, explicit),
      // A visitor who came by the QR code shares back from it: their lead says so.
      leadForm: withLanguage(`${base}/share-back${source === "qr" ? "?src=qr" : ""}`, explicit),
      // The preview image shows what anyone may see, whoever opened the page.
      ogImage: `${absolute}/og.png?v=${ogVersion(await cardForViewer(stored, null, policies), site)}`,
    },
  };
}

/**
 * A visitor who is not signed in gets the card complete as sent, without the
 * app's JavaScript, and the server caches that page for the next one
 * (server/page-cache.ts).
 */
export const handle = {
  staticForVisitor: (data: { viewer: unknown }) => data.viewer === null,
  cachedPage: "card",
};

export default function PublicCard({ loaderData }: Route.ComponentProps) {
  const { card, links, viewer, admin, qr, back, team } = loaderData;
  // Signed-in viewers see the view badge move as others look (docs/decisions/006-realtime-and-views.md).
  // Only this card's own views and edits concern it.
  useLiveData((event) => (event.kind === "view" || event.kind === "profile") && event.id === card.id, viewer !== null);
  const name = fullName(card);
  const scope = brandScope(card.brand);
  const owner = viewer?.isOwner === true;
  const t = useT();
  const rich = useRich();
  const intl = useIntl();
  // The owner's card and QR page open without a network once seen (routes/sw.js.ts); nobody else's are cached.
  useEffect(() => {
    if (owner && "serviceWorker" in navigator) {
      navigator.serviceWorker.register(`/sw.js?card=${encodeURIComponent(card.username)}`).catch(() => {});
    }
  }, [owner, card.username]);
  return (
    <div className={`min-h-dvh pb-16 ${scope.className ?? ""}`} style={scope.style} data-testid="card-page">
      <header className="mx-auto flex max-w-5xl items-center justify-between gap-2 px-4 py-3 sm:px-6">
        <WayBackLink way={back} className={buttonClasses("ghost", "sm", "whitespace-nowrap")} label={shortBackLabel} />
        <nav aria-label={t("card.nav")} className="flex items-center gap-1">
          <Link to={links.mobileQr} className={buttonClasses("ghost", "sm", "whitespace-nowrap")}>
            <QrCode aria-hidden className="size-4" />
            {t("card.mobileQr")}
          </Link>
          {viewer?.isOwner ? (
            <Link to="/profile/edit" className={buttonClasses("ghost", "sm", "whitespace-nowrap")}>
              <Pencil aria-hidden className="size-4" />
              {t("card.editProfile")}
            </Link>
          ) : null}
          {viewer?.isOwner ? (
            <Link
              to="/share"
              className={buttonClasses("ghost", "sm", "whitespace-nowrap")}
              aria-label={t("card.shareMineLabel")}
              title={t("card.shareMine")}
            >
              <Send aria-hidden className="size-4 rtl:-scale-x-100" />
              <span className="hidden sm:inline">{t("card.shareMine")}</span>
            </Link>
          ) : null}
          <ThemeSwitch />
        </nav>
      </header>

      <main className="mx-auto grid max-w-5xl gap-6 px-4 sm:px-6 lg:grid-cols-[minmax(0,1fr)_340px]">
        <article className="self-start overflow-hidden rounded-3xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <div className="brand-gradient relative h-36 sm:h-44" data-testid="card-banner">
            {card.brand?.coverUrl ? (
              <FallbackImage src={card.brand.coverUrl} alt="" className="absolute inset-0 size-full object-cover" />
            ) : null}
            {card.brand?.logoUrl ? (
              <span className="absolute start-3 top-3 inline-flex h-11 max-w-[55%] items-center rounded-xl bg-white/95 px-3 py-1.5 shadow-sm">
                <FallbackImage
                  src={card.brand.logoUrl}
                  alt={t("card.logo", { brand: card.brand.name })}
                  className="h-full w-auto max-w-full object-contain"
                  fallback={<span className="truncate text-sm font-semibold text-slate-900">{card.brand.name}</span>}
                />
              </span>
            ) : null}
            {card.viewCount !== null ? (
              <span className="absolute end-3 top-3 inline-flex items-center gap-1.5 rounded-full bg-black/60 px-3 py-1 text-sm font-medium text-white backdrop-blur">
                <Eye aria-hidden className="size-4" />
                <span data-testid="view-count">{intl.formatNumber(card.viewCount)}</span>
                <ViewsWord count={card.viewCount} className="sr-only" />
              </span>
            ) : null}
          </div>
          <div className="px-6 pb-8 sm:px-8">
            <div className="-mt-14 flex items-end gap-4">
              <div className="relative">
                <Avatar
                  person={card}
                  photoUrl={card.photoUrl}
                  size="xl"
                  className="ring-4 ring-white dark:ring-slate-900"
                />
                {admin ? (
                  <span
                    title={admin.claimed ? t("card.claimed") : t("card.unclaimed")}
                    className={`absolute end-2 bottom-2 size-5 rounded-full ring-4 ring-white dark:ring-slate-900 ${admin.claimed ? "bg-emerald-500" : "bg-orange-500"}`}
                  >
                    <span className="sr-only">{admin.claimed ? t("card.claimed") : t("card.unclaimed")}</span>
                  </span>
                ) : null}
              </div>
            </div>
            <div className="mt-4 space-y-2">
              <div className="flex flex-wrap items-center gap-2">
                <h1 className="min-w-0 text-2xl font-semibold tracking-tight wrap-anywhere sm:text-3xl">{name}</h1>
                {card.pronouns ? (
                  <span className="text-base text-slate-500 dark:text-slate-400" data-testid="pronouns">
                    ({card.pronouns})
                  </span>
                ) : null}
                {admin && !admin.claimed ? (
                  <span className="rounded-full bg-orange-100 px-2.5 py-0.5 text-xs font-semibold text-orange-800 dark:bg-orange-950 dark:text-orange-200">
                    {t("card.unclaimedProfile")}
                  </span>
                ) : null}
              </div>
              {card.title ? (
                <p className="text-lg text-slate-700 wrap-anywhere dark:text-slate-300">{card.title}</p>
              ) : null}
              {card.department ? (
                <p className="flex items-center gap-1.5 text-slate-600 wrap-anywhere dark:text-slate-400">
                  <Network aria-hidden className="size-4 shrink-0" />
                  <span className="sr-only">{t("card.department")} </span>
                  {card.department}
                </p>
              ) : null}
              <div className="flex flex-wrap items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
                <span className="min-w-0 wrap-anywhere" dir="ltr">
                  @{card.username}
                </span>
                <BrandBadge brand={card.brand} />
              </div>
            </div>
            {card.bio ? (
              <p className="mt-5 whitespace-pre-line text-slate-700 wrap-anywhere dark:text-slate-300">{card.bio}</p>
            ) : null}
            <div className="mt-6 flex flex-col gap-3 sm:flex-row">
              <SaveContactButton href={links.vcard} fileName={links.vcardName} firstName={greetingName(card)} />
              <ShareButton url={links.card} title={name} />
            </div>
            {owner ? null : (
              <Link
                to={links.leadForm}
                className={buttonClasses("ghost", "md", "mt-3 w-full justify-center text-brand-ink sm:w-auto")}
              >
                <Handshake aria-hidden className="size-5" />
                {t("card.shareDetails", { name: greetingName(card) })}
              </Link>
            )}

            <section aria-labelledby="contact-title" className="mt-8">
              <h2
                id="contact-title"
                className="mb-3 text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400"
              >
                {t("card.contactInformation")}
              </h2>
              <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
                <ContactDetails card={card} website={card.brand?.website ?? null} />
              </ul>
            </section>
            {team && (team.manager || team.reports.length > 0) ? <ReportingLines team={team} /> : null}
          </div>
        </article>

        <aside className="space-y-6">
          <section
            aria-labelledby="qr-title"
            className="rounded-3xl border border-slate-200 bg-white p-6 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <h2 id="qr-title" className="text-lg font-semibold">
              {t("card.digitalBusinessCard")}
            </h2>
            {qr ? (
              <div
                role="img"
                aria-label={t("card.qrCode", { name })}
                className="mx-auto mt-4 w-56 overflow-hidden rounded-xl bg-white p-1 [&>svg]:h-auto [&>svg]:w-full"
                // biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG the qrcode library drew on the server from our own card address
                dangerouslySetInnerHTML={{ __html: qr }}
              />
            ) : (
              <p className="mt-4 text-sm text-slate-500">{t("card.generatingQr")}</p>
            )}
            <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">{t("card.scanToSave")}</p>
            <div className="mt-4 flex gap-2">
              <DownloadQrLink href={links.qrPng} fileName={links.qrPngName} />
              <CopyLinkButton url={links.card} />
            </div>
            <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">{t("card.worksWith")}</p>
          </section>

          {card.viewCount !== null || card.memberSince !== null || admin ? (
            <section
              aria-labelledby="stats-title"
              className="rounded-3xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
            >
              <h2 id="stats-title" className="mb-4 text-lg font-semibold">
                {t("card.stats")}
              </h2>
              <dl className="space-y-3 text-sm">
                {card.viewCount !== null ? (
                  <Stat
                    icon={<Eye aria-hidden className="size-4" />}
                    label={t("card.totalViews")}
                    value={intl.formatNumber(card.viewCount)}
                  />
                ) : null}
                {card.memberSince !== null ? (
                  <Stat
                    icon={<CalendarDays aria-hidden className="size-4" />}
                    label={t("card.memberSince")}
                    value={intl.formatDate(new Date(card.memberSince), {
                      month: "long",
                      year: "numeric",
                      timeZone: "UTC",
                    })}
                  />
                ) : null}
                {admin ? (
                  <Stat
                    icon={<ShieldCheck aria-hidden className="size-4" />}
                    label={t("card.status")}
                    value={admin.claimed ? t("card.active") : t("card.unclaimed")}
                  />
                ) : null}
              </dl>
            </section>
          ) : null}

          <section
            aria-labelledby="howto-title"
            className="rounded-3xl border border-slate-200 bg-brand-tint p-6 text-sm text-slate-700 dark:border-slate-800 dark:text-slate-300"
          >
            <h2
              id="howto-title"
              className="mb-3 flex items-center gap-2 text-base font-semibold text-slate-900 dark:text-white"
            >
              <Building2 aria-hidden className="size-4" />
              {t("card.howToSave")}
            </h2>
            <ol className="list-decimal space-y-1.5 ps-5">
              <li>{rich("card.howToSave.tap")}</li>
              <li>{rich("card.howToSave.iphone")}</li>
              <li>{t("card.howToSave.android")}</li>
              <li>{t("card.howToSave.scan")}</li>
            </ol>
          </section>
        </aside>
      </main>
    </div>
  );
}

type Colleague = { firstName: string; lastName: string; username: string; title: string | null };

/** "Reports to" and the direct reports, each a link to their card. */
function ReportingLines({ team }: { team: { manager: Colleague | null; reports: Colleague[] } }) {
  const t = useT();
  return (
    <section aria-labelledby="team-title" className="mt-8">
      <h2
        id="team-title"
        className="mb-3 text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400"
      >
        {t("card.reportingLine")}
      </h2>
      <div className="space-y-4 rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
        {team.manager ? (
          <div>
            <h3 className="mb-1 text-xs text-slate-500 dark:text-slate-400">{t("card.reportsTo")}</h3>
            <ColleagueLink person={team.manager} />
          </div>
        ) : null}
        {team.reports.length > 0 ? (
          <div>
            <h3 className="mb-1 text-xs text-slate-500 dark:text-slate-400">
              {t("card.directReports", { count: team.reports.length })}
            </h3>
            <ul className="space-y-1">
              {team.reports.map((person) => (
                <li key={person.username}>
                  <ColleagueLink person={person} />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </section>
  );
}

function ColleagueLink({ person }: { person: Colleague }) {
  return (
    <Link
      to={`/profile/${encodeURIComponent(person.username)}`}
      className="flex min-w-0 items-center gap-2 rounded-lg py-0.5 font-medium hover:underline"
    >
      <Users aria-hidden className="size-4 shrink-0 text-brand-ink" />
      <span className="wrap-anywhere">{fullName(person)}</span>
      {person.title ? (
        <span className="truncate text-sm font-normal text-slate-500 dark:text-slate-400">· {person.title}</span>
      ) : null}
    </Link>
  );
}

function Stat({ icon, label, value }: { icon: ReactNode; label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-4">
      <dt className="flex items-center gap-2 text-slate-500 dark:text-slate-400">
        {icon}
        {label}
      </dt>
      <dd className="font-semibold">{value}</dd>
    </div>
  );
}

export function ErrorBoundary() {
  return <MissingCard text="card.notFound" />;
}
