import { type MiddlewareFunction, redirect } from "react-router";
import { movedCardAddress } from "~/.server/profiles/previous-usernames";

/**
 * Old card addresses answer with a redirect to the card's address now, before
 * any route looks for the card. It is temporary (307) and never stored by the
 * browser: a name can be taken back, and a browser that kept "old → new" for
 * good then looped between the two after a rename and a rename back.
 */
export const previousUsernameMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (request.method === "GET" || request.method === "HEAD") {
    const target = await movedCardAddress(new URL(request.url));
    if (target) throw redirect(target, { status: 307, headers: { "Cache-Control": "no-store" } });
  }
  return next();
};
