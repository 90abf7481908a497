import { type BodyHandle, formText, MAX_UPLOAD_FORM_BYTES, readForm } from "~/.server/form-data";
import { samlProviderByIssuer } from "~/.server/sso/providers";
import { acceptSamlResponse } from "~/.server/sso/saml";
import type { Route } from "./+types/saml-acs";

/**
 * A SAML provider's answers are forms posted from its own site: this action
 * takes them without the same-site check every other form meets (its
 * signature is the proof), up to a SAML response's size.
 */
export const handle: BodyHandle = { bodyLimit: "upload", crossSite: true };

/** The assertion consumer service: an answer is checked, then the browser goes on to finish its sign-in. */
export async function action({ request }: Route.ActionArgs) {
  const accepted = await acceptSamlResponse(
    formText(await readForm(request, MAX_UPLOAD_FORM_BYTES)),
    samlProviderByIssuer,
  );
  if (accepted.outcome !== "ok") {
    console.warn(
      `[sso] ${accepted.providerName ?? "a SAML provider"}: answer refused (${accepted.outcome}): ${accepted.reason}`,
    );
    return redirectTo(`/auth?${new URLSearchParams({ sso: accepted.outcome })}`);
  }
  // A GET of this site: the browser's own cookie comes with it, and shows it is the one that asked.
  return redirectTo(`/api/auth/sso/callback?${new URLSearchParams({ state: accepted.handle })}`);
}

function redirectTo(location: string) {
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}
