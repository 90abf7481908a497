import { ArrowUpRight, Eye, Handshake } from "lucide-react";
import { useIntl } from "react-intl";
import { Link } from "react-router";
import { uncommittedViews } from "~/.server/analytics/views";
import { getOptionalViewer } from "~/.server/http/authz";
import { reusableCount } from "~/.server/http/cached-render";
import { cardMissing } from "~/.server/http/card-gone";
import { cardLocale, pageLanguage } from "~/.server/http/language";
import { translate } from "~/.server/platform/i18n";
import { getSiteSettings, visitorsSeeStats } from "~/.server/platform/site-settings";
import { cardForViewer, getCardByUsername } from "~/.server/profiles/get-card";
import { brandQrLogo, MOBILE_QR, qrSvg, qrTargetUrl } from "~/.server/profiles/qr";
import { wayBack } from "~/.server/profiles/way-back";
import { brandScope } from "~/components/brand-badge";
import { FallbackImage } from "~/components/fallback-image";
import { MissingCard, missingCardTitle } from "~/components/not-found-card";
import { buttonClasses } from "~/components/ui/button";
import { ViewsWord } from "~/components/views-word";
import { shortBackLabel, WayBackLink } from "~/components/way-back";
import { useT } from "~/lib/i18n/intl";
import { localeFromQuery, withLanguage } from "~/lib/i18n/negotiate";
import { mediaUrl } from "~/lib/media";
import { fullName, greetingName } from "~/lib/names";
import { useSite } from "~/lib/site";
import type { Route } from "./+types/$username";

export function meta({ data: loaderData, error, matches }: Route.MetaArgs) {
  return [
    { title: loaderData?.card ? loaderData.title : missingCardTitle(error, matches) },
    { name: "robots", content: "noindex" },
  ];
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const [viewer, stored, site] = await Promise.all([
    getOptionalViewer(request),
    getCardByUsername(params.username),
    getSiteSettings(),
  ]);
  if (!stored) return cardMissing(params.username, "page");
  const card = await cardForViewer(stored, viewer);
  const back = wayBack({ signedIn: viewer !== null, brand: card.brand, site });
  // As on the card: the company decides whether visitors see the count; whoever is signed in does.
  const showStats = viewer !== null || (await visitorsSeeStats());
  const locale = cardLocale(request, stored.brand, site);
  return {
    language: pageLanguage(request, locale, site),
    // The language a link named, kept by the page's own links.
    named: localeFromQuery(new URL(request.url)),
    title: translate(locale, "qr.title", { name: fullName(card) }),
    card: {
      firstName: card.firstName,
      lastName: card.lastName,
      username: card.username,
      title: card.title,
      viewCount: showStats ? reusableCount(context, card.id, card.viewCount + uncommittedViews(card.id)) : null,
      brand: card.brand
        ? {
            name: card.brand.name,
            primaryColor: card.brand.primaryColor,
            secondaryColor: card.brand.secondaryColor,
            logoUrl: mediaUrl(card.brand.logo),
          }
        : null,
    },
    qr: await qrSvg(qrTargetUrl(card.username), { ...MOBILE_QR, logo: await brandQrLogo(card.brand) }),
    back,
  };
}

/** Complete as sent, for anyone: sent without the app's JavaScript (docs/decisions/018-reused-cards-and-batched-views.md). */
/** Complete as sent, and cached by the server for the next anonymous visitor (server/page-cache.ts). */
export const handle = { staticForVisitor: () => true, cachedPage: "qr" };

export default function MobileQr({ loaderData }: Route.ComponentProps) {
  const site = useSite();
  const t = useT();
  const intl = useIntl();
  const { card, qr, back } = loaderData;
  const profileHref = withLanguage(`/profile/${encodeURIComponent(card.username)}`, loaderData.named);
  const shareBackHref = withLanguage(
    `/profile/${encodeURIComponent(card.username)}/share-back?src=qr`,
    loaderData.named,
  );
  const scope = brandScope(card.brand);
  return (
    <div
      className={`flex min-h-dvh flex-col bg-slate-100 dark:bg-slate-950 ${scope.className ?? ""}`}
      style={scope.style}
    >
      <header className="flex items-center justify-between gap-2 px-4 py-3">
        <div className="flex items-center gap-1">
          <WayBackLink
            way={back}
            className={buttonClasses("ghost", "sm", "whitespace-nowrap")}
            label={shortBackLabel}
          />
          <Link to={profileHref} className={buttonClasses("ghost", "sm", "whitespace-nowrap")}>
            {t("qr.viewFullProfile")}
            <ArrowUpRight aria-hidden className="size-4 rtl:-scale-x-100" />
          </Link>
        </div>
        {card.viewCount !== null ? (
          <span className="inline-flex items-center gap-1.5 text-sm whitespace-nowrap text-slate-600 dark:text-slate-400">
            <Eye aria-hidden className="size-4" />
            <span data-testid="view-count">{intl.formatNumber(card.viewCount)}</span>{" "}
            <ViewsWord count={card.viewCount} />
          </span>
        ) : null}
      </header>
      <main className="flex flex-1 flex-col items-center px-4 pb-8">
        <div className="w-full max-w-md overflow-hidden rounded-3xl bg-white shadow-lg dark:bg-slate-900">
          <div className="brand-gradient px-6 py-6 text-center text-on-banner" data-testid="card-banner">
            {card.brand?.logoUrl ? (
              <FallbackImage
                src={card.brand.logoUrl}
                alt={card.brand.name}
                className="mx-auto mb-3 h-10 w-auto object-contain"
                fallback={<BrandName name={card.brand.name} />}
              />
            ) : card.brand ? (
              <BrandName name={card.brand.name} />
            ) : null}
            <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">{fullName(card)}</h1>
            {card.title ? <p className="mt-1 wrap-anywhere">{card.title}</p> : null}
          </div>
          <div className="space-y-4 p-6 text-center">
            <p className="text-lg font-medium wrap-anywhere">{t("qr.scanToConnect", { name: greetingName(card) })}</p>
            <div
              role="img"
              aria-label={t("card.qrCode", { name: fullName(card) })}
              className="mx-auto w-full max-w-[400px] overflow-hidden rounded-2xl border-4 border-brand-dot bg-white [&>svg]:h-auto [&>svg]:w-full"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG the qrcode library drew on the server from our own card address
              dangerouslySetInnerHTML={{ __html: qr }}
            />
            <div>
              <p className="font-semibold">{t("card.digitalBusinessCard")}</p>
              <p className="text-sm text-slate-600 dark:text-slate-400">{t("qr.pointCamera")}</p>
            </div>
          </div>
        </div>
      </main>
      <footer className="flex flex-col items-center gap-3 px-4 pb-8 text-sm text-slate-600 dark:text-slate-400">
        <p>{t("qr.poweredBy", { company: site.companyName })}</p>
        <Link to={profileHref} className={buttonClasses("primary", "md")}>
          {t("qr.viewFullProfile")}
        </Link>
        <Link
          to={shareBackHref}
          className="inline-flex items-center gap-1.5 font-medium text-brand-ink hover:underline"
        >
          <Handshake aria-hidden className="size-4" />
          {t("card.shareDetails", { name: greetingName(card) })}
        </Link>
      </footer>
    </div>
  );
}

function BrandName({ name }: { name: string }) {
  return <p className="mb-2 text-sm font-semibold tracking-wide uppercase opacity-90 wrap-anywhere">{name}</p>;
}

export function ErrorBoundary() {
  return <MissingCard text="card.notFoundShort" />;
}
