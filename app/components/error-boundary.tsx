import { CircleAlert, FileQuestion, Lock } from "lucide-react";
import type { ReactNode } from "react";
import { isRouteErrorResponse, useLocation, useRouteError } from "react-router";
import { StatusPage } from "~/components/status-page";
import { buttonClasses } from "~/components/ui/button";
import { useT } from "~/lib/i18n/intl";

/**
 * The error boundary every route uses, in the product's frame. A route that
 * says "not found" in its own words passes them as `notFound`; every other
 * status, and any unexpected error, gets the general page.
 */
export function RouteErrorBoundary({ notFound, gone }: { notFound?: ReactNode; gone?: ReactNode }) {
  const error = useRouteError();
  const location = useLocation();
  const t = useT();
  if (notFound && isRouteErrorResponse(error) && error.status === 404) return <>{notFound}</>;
  if (gone && isRouteErrorResponse(error) && error.status === 410) return <>{gone}</>;
  let title = t("error.title");
  let detail = t("error.detail");
  let icon = <CircleAlert aria-hidden className="size-7" />;
  let retry = true;
  if (isRouteErrorResponse(error)) {
    retry = error.status >= 500;
    if (error.status === 404) {
      title = t("error.notFoundTitle");
      detail = t("error.notFoundDetail");
      icon = <FileQuestion aria-hidden className="size-7" />;
    } else if (error.status === 400) {
      title = t("error.badAddressTitle");
      detail = typeof error.data === "string" ? error.data : t("error.badAddressDetail");
    } else if (error.status === 410) {
      title = t("error.goneTitle");
      detail = t("error.goneDetail");
      icon = <FileQuestion aria-hidden className="size-7" />;
    } else if (error.status === 403) {
      title = t("error.forbiddenTitle");
      detail = t("error.forbiddenDetail");
      icon = <Lock aria-hidden className="size-7" />;
    } else {
      title = `${error.status} ${error.statusText}`;
    }
  } else if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
  }
  return (
    <StatusPage
      icon={icon}
      title={title}
      member={{ to: "/", label: t("error.home") }}
      extra={
        retry ? (
          // A plain link that loads this address again: it works before, and without, the page's scripts.
          <a href={`${location.pathname}${location.search}`} className={buttonClasses("secondary")}>
            {t("error.tryAgain")}
          </a>
        ) : null
      }
    >
      <p>{detail}</p>
    </StatusPage>
  );
}
