import type { ReactNode } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";

/**
 * The error boundary every route uses. A route that says "not found" in its
 * own words passes them as `notFound`; every other status, and any unexpected
 * error, gets the general page.
 */
export function RouteErrorBoundary({ notFound }: { notFound?: ReactNode }) {
  const error = useRouteError();
  if (notFound && isRouteErrorResponse(error) && error.status === 404) return <>{notFound}</>;
  let title = "Something went wrong";
  let detail = "An unexpected error occurred. Please try again in a moment.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "Page not found";
      detail = "The page you're looking for doesn't exist or has been moved.";
    } else if (error.status === 400) {
      title = "This address is not valid";
      detail = typeof error.data === "string" ? error.data : "Check the link and try again.";
    } else if (error.status === 403) {
      title = "Not allowed";
      detail = "You do not have permission to see this page.";
    } else {
      title = `${error.status} ${error.statusText}`;
    }
  } else if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
  }
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-slate-600 dark:text-slate-400">{detail}</p>
      <a href="/" className="rounded-lg bg-brand-solid px-4 py-2 text-sm font-medium text-brand-on-solid">
        Go to the home page
      </a>
    </main>
  );
}
