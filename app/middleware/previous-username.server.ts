import { type MiddlewareFunction, redirect } from "react-router";
import { movedCardAddress } from "~/.server/profiles/previous-usernames";

/**
 * Old card addresses answer with a permanent redirect (308) to the card's
 * address now, before any route looks for the card.
 */
export const previousUsernameMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (request.method === "GET" || request.method === "HEAD") {
    const target = await movedCardAddress(new URL(request.url));
    if (target) throw redirect(target, 308);
  }
  return next();
};
