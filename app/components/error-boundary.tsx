import { CircleAlert, FileQuestion, Lock } from "lucide-react";
import type { ReactNode } from "react";
import { isRouteErrorResponse, useLocation, useRouteError } from "react-router";
import { StatusPage } from "~/components/status-page";
import { buttonClasses } from "~/components/ui/button";

const HOME = { to: "/", label: "Go to the home page" };

/**
 * The error boundary every route uses, in the product's frame. A route that
 * says "not found" in its own words passes them as `notFound`; every other
 * status, and any unexpected error, gets the general page.
 */
export function RouteErrorBoundary({ notFound, gone }: { notFound?: ReactNode; gone?: ReactNode }) {
  const error = useRouteError();
  const location = useLocation();
  if (notFound && isRouteErrorResponse(error) && error.status === 404) return <>{notFound}</>;
  if (gone && isRouteErrorResponse(error) && error.status === 410) return <>{gone}</>;
  let title = "Something went wrong";
  let detail = "An unexpected error occurred. Please try again in a moment.";
  let icon = <CircleAlert aria-hidden className="size-7" />;
  let retry = true;
  if (isRouteErrorResponse(error)) {
    retry = error.status >= 500;
    if (error.status === 404) {
      title = "Page not found";
      detail = "The page you're looking for doesn't exist or has been moved.";
      icon = <FileQuestion aria-hidden className="size-7" />;
    } else if (error.status === 400) {
      title = "This address is not valid";
      detail = typeof error.data === "string" ? error.data : "Check the link and try again.";
    } else if (error.status === 410) {
      title = "No longer available";
      detail = "What was at this address has been switched off.";
      icon = <FileQuestion aria-hidden className="size-7" />;
    } else if (error.status === 403) {
      title = "Not allowed";
      detail = "You do not have permission to see this page.";
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
      member={HOME}
      extra={
        retry ? (
          // A plain link that loads this address again: it works before, and without, the page's scripts.
          <a href={`${location.pathname}${location.search}`} className={buttonClasses("secondary")}>
            Try again
          </a>
        ) : null
      }
    >
      <p>{detail}</p>
    </StatusPage>
  );
}
