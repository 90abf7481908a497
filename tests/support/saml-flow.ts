import type { Actor } from "~/.server/platform/actor";
import { env } from "~/.server/platform/env";
import { saveProvider } from "~/.server/sso/providers";
import { samlAcsUrl, samlEntityId } from "~/.server/sso/saml";
import { ProviderFormSchema } from "~/.server/sso/schemas";
import { action as acsAction } from "~/routes/sso/saml-acs";
import { run } from "../server/helpers";
import { type SamlReply, TestSamlIdp } from "./saml-idp";
import type { SsoBrowser } from "./sso-flow";

/** A test SAML provider for Namecard's service provider, serving its sign-in page. */
export function startSamlIdp(options: ConstructorParameters<typeof TestSamlIdp>[1] = {}) {
  return new TestSamlIdp({ entityId: samlEntityId(), acsUrl: samlAcsUrl() }, options).listen();
}

/** An administrator connects the test provider as "Acme SAML" by pasting its metadata, as the settings form sends it. */
export async function connectSamlProvider(
  idp: TestSamlIdp,
  admin: Actor,
  options: { domains?: string; idpInitiated?: boolean; refreshCard?: boolean } = {},
) {
  const form = ProviderFormSchema.parse({
    protocol: "saml",
    name: "Acme SAML",
    metadata: idp.metadata(),
    domains: options.domains ?? "acme.test",
    idpInitiated: options.idpInitiated ? "on" : "",
    refreshCard: options.refreshCard ? "on" : "",
  });
  return saveProvider({ actor: admin, id: null, form });
}

/**
 * The provider's page posts an answer to the assertion consumer service, from its
 * own site, in `browser` (which keeps any cookie it sets): where it goes next.
 */
async function postSamlResponse(browser: SsoBrowser, encoded: string, from = "https://idp.acme.test") {
  const request = new Request(samlAcsUrl(), {
    method: "POST",
    headers: { origin: from, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ SAMLResponse: encoded }),
  });
  const answer = await run(acsAction, request);
  browser.keep(samlAcsUrl(), answer.headers);
  if (!answer.location) throw new Error("the assertion consumer service sent the browser nowhere");
  return answer.location;
}

/**
 * A whole SAML sign-in by `browser`: it presses the button, the provider
 * answers its request with `answer`, the answer is posted, and the browser
 * follows on to Namecard's callback. Returns where it ends and the answer sent.
 */
export async function samlSignIn(
  browser: SsoBrowser,
  idp: TestSamlIdp,
  providerId: string,
  answer: Partial<SamlReply> & Pick<SamlReply, "nameId">,
  options: { callbackURL?: string } = {},
) {
  const started = await browser.start({ providerId, ...options });
  if (!started.body.url) throw new Error(`the sign-in did not start: ${JSON.stringify(started.body)}`);
  const requestId = await idp.requestIdOf(started.body.url);
  const encoded = await idp.answer({ inResponseTo: requestId, ...answer });
  return { ...(await finish(browser, encoded)), encoded, requestId };
}

/** The answer is posted, and the browser follows where the assertion consumer service sends it. */
export async function finish(browser: SsoBrowser, encoded: string) {
  const next = await postSamlResponse(browser, encoded);
  if (!next.startsWith("/api/auth/")) return { status: 303, location: next };
  return browser.callback(`${env.PUBLIC_URL}${next}`);
}

/** The answer is posted by `poster`, and the page it is sent on to is opened by `opener`, as a link would be. */
export async function finishElsewhere(poster: SsoBrowser, opener: SsoBrowser, encoded: string) {
  const next = await postSamlResponse(poster, encoded);
  return opener.callback(`${env.PUBLIC_URL}${next}`);
}
