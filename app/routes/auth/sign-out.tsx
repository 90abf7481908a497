import { redirect } from "react-router";
import { callAuth, cookieHeaders } from "~/.server/auth";
import type { Route } from "./+types/sign-out";

/** POST only: signing out is a mutation, never a GET. */
export async function loader() {
  throw redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  const result = await callAuth(request, "/sign-out", {});
  // The person asked to leave: the cookie goes whatever the server said.
  const headers = cookieHeaders(result.headers);
  if (!headers.has("set-cookie")) {
    for (const name of ["namecard.session_token", "__Secure-namecard.session_token"]) {
      headers.append("set-cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
    }
  }
  throw redirect("/auth", { headers });
}
