import { randomBytes, X509Certificate } from "node:crypto";
import { generateServiceProviderMetadata, type Profile, SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import { DOMParser } from "@xmldom/xmldom";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import * as xpath from "xpath";
import { db } from "../platform/db/client";
import { identityProviders, samlAssertions, ssoLogins } from "../platform/db/schema";
import { env } from "../platform/env";
import { randomToken, tokenHash } from "../platform/tokens";
import { CARD_FIELD_RULES, type SamlAttribute } from "../profiles/card-fields";
import type { ProviderClaims } from "./claims";

/**
 * SAML 2.0 sign-in through node-saml (docs/decisions/030-single-sign-on.md).
 * Namecard is one service provider for every SAML provider: it sends an
 * AuthnRequest by the HTTP-Redirect binding and takes the answer at one
 * assertion consumer service (HTTP-POST). The library checks the signatures
 * (against the provider's saved certificates only, never one the answer
 * carries), the audience, the times and the subject's confirmation; this module
 * adds what it leaves out: SHA-1 and other weak algorithms refused, the
 * Destination and the Recipient, the issuer, the request the answer is for
 * (one use, in the browser that asked) and each assertion used once.
 */

/** A SAML provider as a sign-in uses it (sso/providers.ts keeps the rest). */
export type SamlProvider = {
  id: string;
  name: string;
  issuer: string;
  ssoUrl: string;
  certificates: string[];
  idpInitiated: boolean;
};

/** How far the provider's clock may be from ours. */
const CLOCK_SKEW_MS = 3 * 60 * 1000;
/** The oldest assertion accepted, from when it was issued. */
const MAX_ASSERTION_AGE_MS = 10 * 60 * 1000;
/** How long a person has to come back from the provider. */
const LOGIN_TTL_MS = 10 * 60 * 1000;
/** How long a checked answer waits for its browser: the redirect that follows it. */
const ASSERTED_TTL_MS = 2 * 60 * 1000;
/** The largest response read, in base64 characters: a real one is a few kilobytes. */
const MAX_RESPONSE_CHARS = 256 * 1024;

const PROTOCOL_NS = "urn:oasis:names:tc:SAML:2.0:protocol";
const TRANSIENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const PERSISTENT_FORMAT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
/** Asked for in a request: whichever format the provider keeps for Namecard, from the metadata it imported. */
const UNSPECIFIED_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified";
const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

/** The signature and digest algorithms accepted: SHA-1 and anything weaker are not. */
const SIGNATURE_ALGORITHMS = new Set([
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
]);
const DIGEST_ALGORITHMS = new Set([
  "http://www.w3.org/2001/04/xmlenc#sha256",
  "http://www.w3.org/2001/04/xmlenc#sha512",
]);

/** Namecard's entity ID, which is also where its metadata is. */
export function samlEntityId(): string {
  return `${env.PUBLIC_URL}/sso/saml/metadata`;
}

/** The assertion consumer service: where every SAML provider posts its responses. */
export function samlAcsUrl(): string {
  return `${env.PUBLIC_URL}/sso/saml/acs`;
}

/** Namecard's service-provider metadata, for the administrator to give the provider. */
export function samlMetadata(): string {
  const metadata = generateServiceProviderMetadata({
    issuer: samlEntityId(),
    callbackUrl: samlAcsUrl(),
    wantAssertionsSigned: true,
    identifierFormat: PERSISTENT_FORMAT,
  });
  // The NameID formats a person can be known by from one sign-in to the next, persistent first: a provider
  // that imports the metadata takes the first it supports (some only ever the first), and keeps its own
  // default, often transient, when none is named.
  return metadata.replace(
    /(<(?:md:)?NameIDFormat>[^<]*<\/(?:md:)?NameIDFormat>)/,
    (first) => `${first}${first.replace(PERSISTENT_FORMAT, EMAIL_FORMAT)}`,
  );
}

function samlFor(provider: SamlProvider, requestId?: string): SAML {
  return new SAML({
    issuer: samlEntityId(),
    callbackUrl: samlAcsUrl(),
    entryPoint: provider.ssoUrl,
    idpIssuer: provider.issuer,
    idpCert: provider.certificates,
    audience: samlEntityId(),
    // The assertion must be signed; a signature on the whole response alone is not enough.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    // An assertion issued longer ago is refused, whatever end it names.
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    // Which request an answer is for is checked here, against the browser that asked (below).
    validateInResponseTo: ValidateInResponseTo.never,
    // Let the provider choose how people sign in there (a password, a key, a second factor).
    disableRequestedAuthnContext: true,
    // The request lets the provider pick among the formats of the metadata (persistent or e-mail), and create one.
    identifierFormat: UNSPECIFIED_FORMAT,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

/**
 * Starts a sign-in: stores which request the answer must be for and returns
 * the provider's address to send the browser to, with the key the browser
 * keeps in a cookie so that only it can finish this sign-in.
 */
export async function startSamlSignIn(
  provider: SamlProvider,
  options: { redirectTo: string; testBy?: string | undefined },
): Promise<{ url: string; browserKey: string }> {
  const requestId = `_${randomBytes(20).toString("hex")}`;
  const browserKey = randomToken();
  const url = await samlFor(provider, requestId).getAuthorizeUrlAsync("", undefined, {});
  await db.delete(ssoLogins).where(lt(ssoLogins.expiresAt, sql`now()`));
  await db.insert(ssoLogins).values({
    stateHash: tokenHash(requestId),
    providerId: provider.id,
    browserHash: tokenHash(browserKey),
    redirectTo: options.redirectTo,
    testBy: options.testBy ?? null,
    expiresAt: new Date(Date.now() + LOGIN_TTL_MS),
  });
  return { url, browserKey };
}

type Refused = { outcome: "expired" | "failed"; reason: string; providerName?: string; providerId?: string };

/**
 * A checked answer, waiting under `handle` for its browser; `browserKey` is
 * the key an unsolicited one is bound to (a solicited one is bound to the
 * key of the browser that asked).
 */
type Accepted = { outcome: "ok"; handle: string; browserKey: string | null };

function parseXml(xml: string): Document | null {
  // A DOCTYPE can declare entities (the billion laughs); no provider sends one.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return null;
  let failed = false;
  const fail = () => {
    failed = true;
  };
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: fail, fatalError: fail } }).parseFromString(
    xml,
    "text/xml",
  );
  return failed || !doc?.documentElement ? null : (doc as unknown as Document);
}

const select = (expression: string, node: Node) => xpath.select(expression, node) as Node[];
const attribute = (expression: string, node: Node): string | null => {
  const [found] = select(expression, node);
  return found ? (found as Attr).value : null;
};
const textOf = (expression: string, node: Node): string | null => {
  const [found] = select(expression, node);
  return found?.textContent?.trim() || null;
};

/** Why an answer's algorithms are refused, or null when every one is accepted. */
function weakAlgorithm(doc: Document): string | null {
  for (const method of select("//*[local-name()='SignatureMethod']/@Algorithm", doc) as Attr[]) {
    if (!SIGNATURE_ALGORITHMS.has(method.value))
      return `signature algorithm ${JSON.stringify(method.value.slice(0, 100))}`;
  }
  for (const method of select("//*[local-name()='DigestMethod']/@Algorithm", doc) as Attr[]) {
    if (!DIGEST_ALGORITHMS.has(method.value)) return `digest algorithm ${JSON.stringify(method.value.slice(0, 100))}`;
  }
  return null;
}

/**
 * SAML attributes providers send of the person's identity, by their OpenID
 * Connect claim; the card fields' own are in their definitions
 * (app/.server/profiles/card-fields.ts), read as each field's first claim. Each
 * as a plain name (matched against an attribute's Name or its
 * FriendlyName), and in the namings providers use for Name: the LDAP OID
 * (`urn:oid:`, SAML2 URI format), the `urn:mace:dir:attribute-def:` form
 * (pysaml2's basic format, older Shibboleth), and Microsoft's claim URIs
 * (Entra ID, ADFS).
 */
const IDENTITY_ATTRIBUTES: Record<string, SamlAttribute> = {
  email: {
    names: ["email", "mail", "emailaddress", "emailAddress"],
    oids: ["0.9.2342.19200300.100.1.3"],
    uris: ["http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"],
  },
  given_name: {
    names: ["givenName", "firstName", "first_name", "given_name"],
    oids: ["2.5.4.42"],
    uris: ["http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname"],
  },
  family_name: {
    names: ["sn", "surname", "lastName", "last_name", "family_name"],
    oids: ["2.5.4.4"],
    uris: ["http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname"],
  },
  name: {
    names: ["displayName", "cn", "commonName", "fullName", "name"],
    oids: ["2.16.840.1.113730.3.1.241", "2.5.4.3"],
    uris: ["http://schemas.microsoft.com/identity/claims/displayname"],
  },
};

/** Every attribute a sign-in reads, with the claim it is read as: the identity's, then the card fields'. */
const ATTRIBUTE_CLAIMS: [claim: string, attribute: SamlAttribute][] = [
  ...Object.entries(IDENTITY_ATTRIBUTES),
  ...Object.values(CARD_FIELD_RULES).flatMap((rules): [string, SamlAttribute][] =>
    rules.saml && rules.claims[0] ? [[rules.claims[0], rules.saml]] : [],
  ),
];

/** Every spelling of a claim's attribute, lower-cased: plain, `urn:oid:`, `urn:mace:dir:attribute-def:`, URI. */
function spellingsOf(claim: SamlAttribute): string[] {
  return [
    ...claim.names,
    ...claim.names.map((name) => `urn:mace:dir:attribute-def:${name}`),
    ...(claim.oids ?? []).map((oid) => `urn:oid:${oid}`),
    ...(claim.uris ?? []),
  ].map((name) => name.toLowerCase());
}

/** The signed assertion's attributes by FriendlyName (lower-cased), each with its first value. */
function byFriendlyName(assertion: Document | null): Map<string, string> {
  const found = new Map<string, string>();
  if (!assertion) return found;
  for (const node of select("//*[local-name()='Attribute'][@FriendlyName]", assertion) as Element[]) {
    const friendly = node.getAttribute("FriendlyName")?.trim().toLowerCase();
    const value = textOf("./*[local-name()='AttributeValue']", node);
    if (friendly && value && !found.has(friendly)) found.set(friendly, value);
  }
  return found;
}

function claimsOf(provider: SamlProvider, profile: Profile, assertion: Document | null): ProviderClaims {
  const text: Record<string, string> = {};
  const lowered = new Map(Object.entries(profile).map(([name, value]) => [name.toLowerCase(), value]));
  const friendly = byFriendlyName(assertion);
  for (const [claim, spellings] of ATTRIBUTE_CLAIMS) {
    for (const name of spellingsOf(spellings)) {
      const value = lowered.get(name) ?? friendly.get(name);
      const first = Array.isArray(value) ? value[0] : value;
      if (typeof first === "string" && first.trim()) {
        text[claim] = first.trim();
        break;
      }
    }
  }
  if (!text.email && profile.nameIDFormat === EMAIL_FORMAT) text.email = profile.nameID.trim();
  // An address as NameID is one person whatever its letter case; any other NameID is kept exactly.
  const subject = profile.nameIDFormat === EMAIL_FORMAT ? profile.nameID.trim().toLowerCase() : profile.nameID;
  // A SAML provider vouches for the addresses of the domains it is saved with (sso/identities.ts checks them).
  return { issuer: provider.issuer, subject, emailVerified: null, text };
}

/**
 * Checks an answer posted to the assertion consumer service and keeps what it
 * says of the person for the browser, which the route then sends on to finish
 * the sign-in (its cookie is not sent with a form posted from another site).
 * Returns the key that finishes it.
 */
export async function acceptSamlResponse(
  form: Record<string, string>,
  providerByIssuer: (issuer: string) => Promise<SamlProvider | null>,
): Promise<Accepted | Refused> {
  const encoded = form.SAMLResponse ?? "";
  if (!encoded || encoded.length > MAX_RESPONSE_CHARS || !/^[A-Za-z0-9+/=\s]+$/.test(encoded)) {
    return { outcome: "failed", reason: "no SAMLResponse, or not base64" };
  }
  const xml = Buffer.from(encoded, "base64").toString("utf8");
  const doc = parseXml(xml);
  const root = doc?.documentElement;
  if (!doc || !root || root.localName !== "Response" || root.namespaceURI !== PROTOCOL_NS) {
    return { outcome: "failed", reason: "not a SAML response" };
  }
  // Which provider's certificates to check it against: the issuer it names, which its signature must then prove.
  const named =
    textOf("/*[local-name()='Response']/*[local-name()='Issuer']", doc) ??
    textOf("/*[local-name()='Response']/*[local-name()='Assertion']/*[local-name()='Issuer']", doc);
  const provider = named ? await providerByIssuer(named) : null;
  // A refusal before the signature is checked is still the named provider's to see (its administrators' list).
  const claimedBy = provider ? { providerName: provider.name, providerId: provider.id } : {};
  const weak = weakAlgorithm(doc);
  if (weak) return { outcome: "failed", reason: `refused ${weak}`, ...claimedBy };
  const destination = root.getAttribute("Destination");
  if (destination && destination !== samlAcsUrl()) {
    return { outcome: "failed", reason: "another Destination", ...claimedBy };
  }
  if (!provider) {
    return {
      outcome: "failed",
      reason: `no SAML provider has the issuer ${JSON.stringify(named?.slice(0, 200) ?? null)}`,
    };
  }
  const refuse = (reason: string): Refused => ({
    outcome: "failed",
    reason,
    providerName: provider.name,
    providerId: provider.id,
  });
  // Said apart from a signature that does not match: a provider set to sign only the response, or nothing.
  const assertionSignature = select(
    "/*[local-name()='Response']/*[local-name()='Assertion']/*[local-name()='Signature']",
    doc,
  );
  if (assertionSignature.length === 0) {
    const responseSigned = select("/*[local-name()='Response']/*[local-name()='Signature']", doc).length > 0;
    return refuse(responseSigned ? "the assertion is not signed, only the response" : "the answer is not signed");
  }

  let profile: Profile;
  try {
    const validated = await samlFor(provider).validatePostResponseAsync({ SAMLResponse: encoded });
    if (!validated.profile) return refuse("no assertion");
    profile = validated.profile;
  } catch (error) {
    // The library's message may quote the answer (a status message): quoted, so it cannot forge a log line.
    return refuse(JSON.stringify(error instanceof Error ? error.message.slice(0, 300) : "not valid"));
  }
  if (profile.issuer !== provider.issuer) {
    return refuse(
      `the assertion names another issuer: ${JSON.stringify(profile.issuer?.slice(0, 200) ?? null)}, the provider is saved with ${JSON.stringify(provider.issuer)}`,
    );
  }

  // What the signed assertion itself says (the library returns it as it was checked).
  const assertion = parseXml(profile.getAssertionXml?.() ?? "");
  if (!assertion) return refuse("no signed assertion");
  const assertionId = attribute("/*[local-name()='Assertion']/@ID", assertion);
  const confirmation = select(
    `/*[local-name()='Assertion']/*[local-name()='Subject']/*[local-name()='SubjectConfirmation'][@Method='${BEARER}']/*[local-name()='SubjectConfirmationData']`,
    assertion,
  )[0] as Element | undefined;
  if (!assertionId || !confirmation) return refuse("no assertion ID or no bearer confirmation");
  if (confirmation.getAttribute("Recipient") !== samlAcsUrl()) return refuse("another Recipient");
  // The confirmation's own end: the library reads it but, with no request to match, does not enforce it.
  const notOnOrAfter = Date.parse(confirmation.getAttribute("NotOnOrAfter") ?? "");
  if (!Number.isFinite(notOnOrAfter)) return refuse("the confirmation has no NotOnOrAfter");
  if (notOnOrAfter + CLOCK_SKEW_MS <= Date.now()) return refuse("the confirmation has expired");
  const conditionsEnd = Date.parse(attribute("//*[local-name()='Conditions']/@NotOnOrAfter", assertion) ?? "");
  // The request it answers, from the signed confirmation only: the response's own attribute may be unsigned.
  const requestId = confirmation.getAttribute("InResponseTo") || null;
  const outer = root.getAttribute("InResponseTo") || null;
  if (outer && outer !== requestId) return refuse("the response and its assertion answer different requests");
  if (!profile.nameID || profile.nameIDFormat === TRANSIENT) {
    return refuse("a transient NameID cannot identify a person from one sign-in to the next");
  }

  const claims = claimsOf(provider, profile, assertion);
  const handle = randomToken();
  const browserKey = requestId ? null : randomToken();
  // Kept as long as any part of the assertion could still be accepted.
  const usableUntil = Math.max(notOnOrAfter, Number.isFinite(conditionsEnd) ? conditionsEnd : 0) + CLOCK_SKEW_MS;
  await db.delete(samlAssertions).where(lt(samlAssertions.expiresAt, sql`now()`));
  return db.transaction(async (tx): Promise<Accepted | Refused> => {
    const [fresh] = await tx
      .insert(samlAssertions)
      .values({ providerId: provider.id, assertionId, expiresAt: new Date(usableUntil) })
      .onConflictDoNothing()
      .returning({ id: samlAssertions.assertionId });
    if (!fresh) return { outcome: "expired", reason: "the assertion was already used", providerName: provider.name };
    const expiresAt = new Date(Date.now() + ASSERTED_TTL_MS);
    if (requestId) {
      // The request it answers: this provider's, unanswered and unexpired. Taken here, so it answers once.
      const [login] = await tx
        .update(ssoLogins)
        .set({ stateHash: tokenHash(handle), claims, expiresAt })
        .where(
          and(
            eq(ssoLogins.stateHash, tokenHash(requestId)),
            eq(ssoLogins.providerId, provider.id),
            isNull(ssoLogins.claims),
            gt(ssoLogins.expiresAt, sql`now()`),
          ),
        )
        .returning({ stateHash: ssoLogins.stateHash });
      if (!login) {
        return {
          outcome: "expired",
          reason: "no pending request of this provider has that ID",
          providerName: provider.name,
        };
      }
      return { outcome: "ok", handle, browserKey: null };
    }
    // An answer no request asked for: only from a provider allowed to start sign-ins, read again in this transaction.
    const [allowed] = await tx
      .select({ id: identityProviders.id })
      .from(identityProviders)
      .where(and(eq(identityProviders.id, provider.id), eq(identityProviders.idpInitiated, true)));
    if (!allowed) return refuse("an unsolicited response, and this provider may not start sign-ins");
    // Finished only in the browser that posted it, which the route gives the key: a link to the
    // callback sent to someone else signs nobody in.
    await tx.insert(ssoLogins).values({
      stateHash: tokenHash(handle),
      providerId: provider.id,
      browserHash: tokenHash(browserKey ?? randomToken()),
      redirectTo: "/",
      claims,
      expiresAt,
    });
    return { outcome: "ok", handle, browserKey };
  });
}

// ─── A provider's settings, as the administrator gives them ─────────────────

export type SamlSettings = { entityId: string; ssoUrl: string; certificates: string[] };

/** What a certificate is shown as: its fingerprint and when it expires, never the certificate. */
export type CertificateSummary = { fingerprint: string; validTo: string };

export function summarizeCertificate(pem: string): CertificateSummary {
  const certificate = new X509Certificate(pem);
  return { fingerprint: certificate.fingerprint256, validTo: new Date(certificate.validTo).toISOString() };
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

function pemOf(base64: string): string {
  const body = base64.replace(/\s+/g, "");
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n") ?? ""}\n-----END CERTIFICATE-----\n`;
}

/**
 * Reads signing certificates as an administrator pastes them (PEM blocks, or
 * the bare base64 of metadata), each checked: a certificate, unexpired.
 */
export function readCertificates(text: string): { ok: true; certificates: string[] } | { ok: false; message: string } {
  const blocks = [...text.matchAll(PEM_BLOCK)].map((match) => match[1] ?? "");
  const bodies = blocks.length > 0 ? blocks : text.trim() ? [text] : [];
  if (bodies.length === 0) return { ok: false, message: "Paste the provider's signing certificate" };
  const certificates: string[] = [];
  let expired: string | null = null;
  for (const body of bodies) {
    if (!/^[A-Za-z0-9+/=\s]+$/.test(body)) {
      return { ok: false, message: "This is not a certificate: paste it as -----BEGIN CERTIFICATE----- …" };
    }
    const pem = pemOf(body);
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(pem);
    } catch {
      return { ok: false, message: "This is not a certificate: paste it as -----BEGIN CERTIFICATE----- …" };
    }
    // During a key rollover a provider lists its old certificate beside the new one: the expired one is left out.
    if (Date.parse(certificate.validTo) < Date.now())
      expired = new Date(certificate.validTo).toISOString().slice(0, 10);
    else certificates.push(pem);
  }
  if (certificates.length === 0) {
    return {
      ok: false,
      message: `The certificate expired on ${expired ?? "an earlier date"}: download the provider's current one`,
    };
  }
  return { ok: true, certificates };
}

/**
 * Reads a provider's metadata as an administrator pastes or uploads it: its
 * entity ID, its sign-in URL for the HTTP-Redirect binding and its signing
 * certificates.
 */
export function readIdpMetadata(xml: string): { ok: true; settings: SamlSettings } | { ok: false; message: string } {
  const doc = parseXml(xml.trim());
  if (!doc) return { ok: false, message: "This is not SAML metadata: paste the XML the provider offers for download" };
  const descriptors = select("//*[local-name()='EntityDescriptor'][*[local-name()='IDPSSODescriptor']]", doc);
  if (descriptors.length !== 1) {
    return {
      ok: false,
      message:
        descriptors.length === 0
          ? "This metadata describes no identity provider (no IDPSSODescriptor)"
          : "This metadata describes several identity providers: paste your company's only",
    };
  }
  const descriptor = descriptors[0] as Element;
  const entityId = descriptor.getAttribute("entityID")?.trim() ?? "";
  const ssoUrl = attribute(
    `*[local-name()='IDPSSODescriptor']/*[local-name()='SingleSignOnService'][@Binding='${REDIRECT_BINDING}']/@Location`,
    descriptor,
  );
  if (!entityId) return { ok: false, message: "This metadata names no entity ID" };
  if (!ssoUrl) return { ok: false, message: "This metadata offers no sign-in URL for the HTTP-Redirect binding" };
  const keys = select(
    "*[local-name()='IDPSSODescriptor']/*[local-name()='KeyDescriptor'][not(@use) or @use='signing']//*[local-name()='X509Certificate']",
    descriptor,
  ).map((node) => node.textContent ?? "");
  if (keys.length === 0) return { ok: false, message: "This metadata holds no signing certificate" };
  const read = readCertificates(keys.map(pemOf).join("\n"));
  if (!read.ok) return read;
  return { ok: true, settings: { entityId, ssoUrl: ssoUrl.trim(), certificates: read.certificates } };
}

/**
 * A SAML response posted to the OpenID Connect redirect URL (the first address
 * the settings page shows, an easy mistake): the provider it names, unchecked
 * (it is only told where its responses belong), or null. Nothing of it is used.
 */
export async function misdirectedSamlResponse(
  encoded: string,
  providerByIssuer: (issuer: string) => Promise<SamlProvider | null>,
): Promise<SamlProvider | null> {
  if (!encoded || encoded.length > MAX_RESPONSE_CHARS || !/^[A-Za-z0-9+/=\s]+$/.test(encoded)) return null;
  const doc = parseXml(Buffer.from(encoded, "base64").toString("utf8"));
  if (!doc) return null;
  const named = textOf("/*[local-name()='Response']/*[local-name()='Issuer']", doc);
  return named ? providerByIssuer(named) : null;
}
