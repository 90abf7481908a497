import { getAuth } from "~/.server/http/auth";
import { type BodyHandle, formText, MAX_SAML_FORM_BYTES, readForm } from "~/.server/http/form-data";
import { noteSignInFailure } from "~/.server/sso/failures";
import { loginCookieHeader } from "~/.server/sso/login-cookie";
import { samlProviderByIssuer } from "~/.server/sso/providers";
import { acceptSamlResponse } from "~/.server/sso/saml";
import type { Route } from "./+types/saml-acs";

/**
 * A SAML provider's answers are forms posted from its own site: this action
 * takes them without the same-site check every other form meets (its
 * signature is the proof), as browsers post them (url-encoded), up to a
 * SAML response's size.
 */
export const handle: BodyHandle = {
  bodyLimit: "saml",
  bodyTypes: ["application/x-www-form-urlencoded"],
  crossSite: true,
};

/** The assertion consumer service: an answer is checked, then the browser goes on to finish its sign-in. */
export async function action({ request }: Route.ActionArgs) {
  const accepted = await acceptSamlResponse(
    formText(await readForm(request, MAX_SAML_FORM_BYTES)),
    samlProviderByIssuer,
  );
  if (accepted.outcome !== "ok") {
    console.warn(
      `[sso] ${accepted.providerName ?? "a SAML provider"}: answer refused (${accepted.outcome}): ${accepted.reason}`,
    );
    if (accepted.providerId) await noteSignInFailure(accepted.providerId, accepted.outcome, accepted.reason);
    return redirectTo(`/auth?${new URLSearchParams({ sso: accepted.outcome })}`);
  }
  // A GET of this site: the browser's own cookie comes with it, and shows it is the one that asked. An answer
  // no request asked for is bound to this browser here (a top-level navigation may set a Lax cookie).
  const location = `/api/auth/sso/callback?${new URLSearchParams({ state: accepted.handle })}`;
  if (!accepted.browserKey) return redirectTo(location);
  const { createAuthCookie } = await getAuth().$context;
  return redirectTo(location, loginCookieHeader(createAuthCookie, accepted.browserKey));
}

function redirectTo(location: string, cookie: string | null = null) {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  if (cookie) headers.set("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}
