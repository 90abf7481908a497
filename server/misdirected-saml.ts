import type { NextFunction, Request, Response } from "express";
import { noteSignInFailure } from "~/.server/sso/failures";
import { callbackUrl } from "~/.server/sso/oidc";
import { samlProviderByIssuer } from "~/.server/sso/providers";
import { misdirectedSamlResponse, samlAcsUrl } from "~/.server/sso/saml";
import { readBody, refuse } from "./request-handler";

/** The OpenID Connect redirect URL's path, where a misconfigured SAML provider posts its responses. */
export const MISDIRECTED_SAML_PATH = new URL(callbackUrl()).pathname;

/** The largest SAML response read where it does not belong: a real one is a few kilobytes. */
const SAML_FORM_LIMIT = 512 * 1024;

/**
 * A SAML provider set up with the OpenID Connect redirect URL posts its
 * responses there, where they met a bare cross-site 403: the person is told to
 * ask their administrator, and the provider's administrators see where its
 * responses belong (the ACS URL). Anything else posted there is refused as before.
 */
export async function misdirectedSamlEndpoint(req: Request, res: Response, next: NextFunction) {
  if (!req.headers["content-type"]?.startsWith("application/x-www-form-urlencoded")) return next();
  const body = await readBody(req, SAML_FORM_LIMIT);
  if (body === "gone") return;
  if (body === "too large") return refuse(req, res, { status: 413, message: "This answer is too large." });
  const encoded = new URLSearchParams(Buffer.from(body).toString("utf8")).get("SAMLResponse");
  if (!encoded) return refuse(req, res, { status: 403, message: "This address takes no form." });
  const provider = await misdirectedSamlResponse(encoded, samlProviderByIssuer).catch(() => null);
  console.warn(
    `[sso] ${provider?.name ?? "a SAML provider"}: an answer was posted to the OpenID Connect redirect URL; its answers belong at the ACS URL, ${samlAcsUrl()}`,
  );
  if (provider) await noteSignInFailure(provider.id, "wrong-endpoint", "posted to the OpenID Connect redirect URL");
  res.status(303).set({ Location: "/auth?sso=wrong-endpoint", "Cache-Control": "no-store" }).end();
}
