import { notFound } from "~/.server/http/responses";
import { RouteErrorBoundary } from "~/components/error-boundary";

/**
 * Every address no other route answers. Without it such an address matches no
 * route, so no loader runs and the 404 page would lack the company's name, logo
 * and the visitor's way onward; here the root loader runs first.
 */
export function loader(): never {
  notFound("Page not found");
}

export function action(): never {
  notFound("Page not found");
}

export const meta = () => [{ title: "Page not found" }, { name: "robots", content: "noindex" }];

/** Never shown: the loader always answers 404, which the boundary renders. */
export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
