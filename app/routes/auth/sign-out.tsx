import { redirect } from "react-router";
import { callAuth, cookieHeaders, getAuth } from "~/.server/http/auth";
import { publish } from "~/.server/platform/realtime";
import type { Route } from "./+types/sign-out";

/** POST only: signing out is a mutation, never a GET. */
export async function loader() {
  throw redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  const session = await getAuth().api.getSession({ headers: request.headers });
  const result = await callAuth(request, "/sign-out", {});
  // Live-update streams of this session end now, on every instance.
  if (session) await publish({ kind: "session-ended", id: session.session.id });
  // The person asked to leave: the cookie goes whatever the server said.
  const headers = cookieHeaders(result.headers);
  if (!headers.has("set-cookie")) {
    for (const name of ["namecard.session_token", "__Secure-namecard.session_token"]) {
      headers.append("set-cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
    }
  }
  // What this browser kept of the member's own card for use without a network goes too.
  headers.set("Clear-Site-Data", '"cache", "storage"');
  throw redirect("/auth", { headers });
}
