import type { IdentityProtocol as ProtocolName } from "~/lib/identity-protocols";
import type { identityProviders, ssoLogins } from "../platform/db/schema";
import { ValidationError } from "../platform/errors";
import type { ProviderClaims } from "./claims";
import { checkDiscovery, finishOidcSignIn, forgetConfiguration, startOidcSignIn } from "./oidc";
import {
  type CertificateSummary,
  readCertificates,
  readIdpMetadata,
  startSamlSignIn,
  summarizeCertificate,
} from "./saml";
import { isAllowedSsoUrl, type ProviderForm } from "./schemas";
import { openSecret, sealSecret } from "./secrets";

/**
 * What each identity protocol does for a provider, behind one interface
 * (docs/architecture.md, "an identity protocol"): how its stored settings
 * open, how a sign-in starts and how the provider's answer becomes claims,
 * how its form is checked and what the audit log and the settings screen show
 * of it. Everything else (the providers' list, their domains, linking an
 * account, the failures) is the same whatever the protocol.
 */

type ProviderBase = {
  id: string;
  name: string;
  /** OpenID Connect: the issuer URL; SAML: the provider's entity ID. */
  issuer: string;
  domains: string[];
  requireSso: boolean;
  refreshCard: boolean;
  verifiesAddresses: boolean;
  /** Where its sign-in page is: a page that sends people there lets its forms lead to it. */
  authorizationOrigin: string;
  updatedAt: Date;
};

type OidcProvider = ProviderBase & { protocol: "oidc"; clientId: string; clientSecret: string | null };
type SamlProvider = ProviderBase & {
  protocol: "saml";
  ssoUrl: string;
  certificates: string[] | null;
  idpInitiated: boolean;
};

/** A provider as sign-in uses it: with its secret (or certificates) opened, or null when they cannot be. */
export type Provider = OidcProvider | SamlProvider;

/** A provider's stored row, with its domains. */
export type ProviderRow = Omit<typeof identityProviders.$inferSelect, "createdAt"> & { domains: string[] };

type PendingLogin = typeof ssoLogins.$inferSelect;

type Finished =
  | { outcome: "ok"; claims: ProviderClaims }
  | { outcome: "expired" | "failed" | "unavailable"; reason: string };

/** The columns a protocol fills, beyond the name, domains and switches every provider has. */
type ProtocolColumns = Pick<
  typeof identityProviders.$inferInsert,
  | "protocol"
  | "issuer"
  | "clientId"
  | "clientSecret"
  | "ssoUrl"
  | "certificates"
  | "idpInitiated"
  | "authorizationOrigin"
>;

/** What the audit log records of a provider's protocol settings: never a secret, only certificates' fingerprints. */
export type AuditedSettings = {
  issuer: string;
  clientId?: string | null;
  ssoUrl?: string | null;
  idpInitiated?: boolean;
  fingerprints?: string[];
};

/** What the settings screen shows of a provider's protocol settings. */
type SettingsSummary = {
  clientId: string | null;
  ssoUrl: string | null;
  idpInitiated: boolean;
  certificates: CertificateSummary[];
};

type FormOf<Name extends ProtocolName> = Extract<ProviderForm, { protocol: Name }>;

interface ProtocolSeam<Name extends ProtocolName> {
  /** Its settings from its stored row, the secret opened (null when this server cannot open it). */
  open(row: ProviderRow): Omit<Extract<Provider, { protocol: Name }>, keyof ProviderBase>;
  /** Whether sign-in can use it: what it stored could be opened. */
  ready(provider: Extract<Provider, { protocol: Name }>): boolean;
  /** Sends the browser to the provider: its address, and the key the browser keeps so that only it can finish. */
  start(
    provider: Extract<Provider, { protocol: Name }>,
    options: { redirectTo: string; loginHint?: string | undefined; testBy?: string | undefined },
  ): Promise<{ url: string; browserKey: string }>;
  /** The provider's answer to a pending sign-in, as claims about the person. */
  finish(
    provider: Extract<Provider, { protocol: Name }>,
    login: PendingLogin,
    query: URLSearchParams,
  ): Promise<Finished>;
  /**
   * Checks its part of the provider form, reading the provider's own
   * documents where it has them; a mistake is a ValidationError on its field.
   */
  settingsOf(
    form: FormOf<Name>,
    before: Extract<Provider, { protocol: Name }> | null,
    providerId: string,
  ): Promise<{ columns: ProtocolColumns; audited: AuditedSettings }>;
  audited(provider: Extract<Provider, { protocol: Name }>): AuditedSettings;
  summary(provider: Extract<Provider, { protocol: Name }>): SettingsSummary;
  /** What the form says when another provider has the same issuer, on the field that named it. */
  issuerTaken(form: FormOf<Name>): Record<string, string[]>;
  /** Drops what was read from the provider (its discovery document), after it changed. */
  forget(providerId: string): void;
  /**
   * Reads again what the provider publishes about itself, for "Check again";
   * null for a protocol whose settings are all pasted in (nothing to read).
   */
  recheck:
    | ((provider: Extract<Provider, { protocol: Name }>) => Promise<{ ok: true } | { ok: false; message: string }>)
    | null;
}

const OIDC: ProtocolSeam<"oidc"> = {
  open: (row) => ({
    protocol: "oidc",
    clientId: row.clientId ?? "",
    clientSecret: row.clientSecret ? openSecret(row.clientSecret, row.id) : null,
  }),
  ready: (provider) => provider.clientSecret !== null,
  start: (provider, options) => startOidcSignIn({ ...provider, clientSecret: secretOf(provider) }, options),
  finish: (provider, login, query) => finishOidcSignIn({ ...provider, clientSecret: secretOf(provider) }, login, query),
  async settingsOf(form, before, providerId) {
    const secret = form.clientSecret ?? before?.clientSecret ?? null;
    if (!secret) {
      throw new ValidationError({
        clientSecret: [
          before
            ? "The stored secret cannot be read with this server's secret: enter it again"
            : "Enter the client secret the provider gave Namecard",
        ],
      });
    }
    const discovered = await checkDiscovery(form.issuer);
    if (!discovered.ok) throw new ValidationError({ issuer: [discovered.message] });
    return {
      columns: {
        protocol: "oidc",
        issuer: form.issuer,
        clientId: form.clientId,
        clientSecret: sealSecret(secret, providerId),
        authorizationOrigin: discovered.authorizationOrigin,
      },
      audited: { issuer: form.issuer, clientId: form.clientId },
    };
  },
  audited: (provider) => ({ issuer: provider.issuer, clientId: provider.clientId }),
  summary: (provider) => ({ clientId: provider.clientId, ssoUrl: null, idpInitiated: false, certificates: [] }),
  issuerTaken: () => ({ issuer: ["Another provider already has this issuer"] }),
  forget: forgetConfiguration,
  async recheck(provider) {
    forgetConfiguration(provider.id);
    const discovered = await checkDiscovery(provider.issuer);
    return discovered.ok ? { ok: true } : discovered;
  },
};

const SAML: ProtocolSeam<"saml"> = {
  open: (row) => ({
    protocol: "saml",
    ssoUrl: row.ssoUrl ?? "",
    certificates: row.certificates ? openCertificates(row.certificates, row.id) : null,
    idpInitiated: row.idpInitiated,
  }),
  ready: (provider) => provider.certificates !== null,
  start: (provider, options) => startSamlSignIn({ ...provider, certificates: certificatesOf(provider) }, options),
  // Checked when the provider posted it (sso/saml.ts), and waiting for this browser.
  finish: async (_provider, login) =>
    login.claims ? { outcome: "ok", claims: login.claims } : { outcome: "expired", reason: "no checked answer" },
  async settingsOf(form, before, providerId) {
    const settings = samlSettingsOf(form, before);
    return {
      columns: {
        protocol: "saml",
        issuer: settings.entityId,
        ssoUrl: settings.ssoUrl,
        certificates: sealSecret(JSON.stringify(settings.certificates), providerId),
        idpInitiated: form.idpInitiated,
        authorizationOrigin: new URL(settings.ssoUrl).origin,
      },
      audited: {
        issuer: settings.entityId,
        ssoUrl: settings.ssoUrl,
        idpInitiated: form.idpInitiated,
        fingerprints: settings.certificates.map((pem) => summarizeCertificate(pem).fingerprint),
      },
    };
  },
  audited: (provider) => ({
    issuer: provider.issuer,
    ssoUrl: provider.ssoUrl,
    idpInitiated: provider.idpInitiated,
    fingerprints: (provider.certificates ?? []).map((pem) => summarizeCertificate(pem).fingerprint),
  }),
  summary: (provider) => ({
    clientId: null,
    ssoUrl: provider.ssoUrl,
    idpInitiated: provider.idpInitiated,
    certificates: (provider.certificates ?? []).map(summarizeCertificate),
  }),
  issuerTaken: (form) => ({
    [form.metadata ? "metadata" : "entityId"]: ["Another provider already has this entity ID"],
  }),
  forget: () => {},
  recheck: null,
};

/** Every protocol by its name: a name added to app/lib/identity-protocols.ts fails the type check here until it has one. */
const PROTOCOLS: { [Name in ProtocolName]: ProtocolSeam<Name> } = { oidc: OIDC, saml: SAML };

/**
 * The protocol a provider (or its row, or its form) speaks. TypeScript cannot
 * follow that a provider and the protocol looked up by its own name agree, so
 * this is the one place that says so.
 */
export function protocolOf(provider: { protocol: ProtocolName }): ProtocolSeam<ProtocolName> {
  return PROTOCOLS[provider.protocol] as unknown as ProtocolSeam<ProtocolName>;
}

function secretOf(provider: OidcProvider): string {
  if (provider.clientSecret === null) throw new Error(`${provider.name}: its client secret cannot be opened`);
  return provider.clientSecret;
}

function certificatesOf(provider: SamlProvider): string[] {
  if (provider.certificates === null) throw new Error(`${provider.name}: its certificates cannot be opened`);
  return provider.certificates;
}

function openCertificates(sealed: string, id: string): string[] | null {
  const opened = openSecret(sealed, id);
  if (opened === null) return null;
  try {
    const list: unknown = JSON.parse(opened);
    return Array.isArray(list) && list.every((item) => typeof item === "string") ? list : null;
  } catch {
    return null;
  }
}

/**
 * A SAML provider's settings from its form: its metadata when pasted, else
 * the entity ID, sign-in URL and certificate typed in; an empty certificate
 * keeps the stored ones. Each is checked, and a mistake said on its field.
 */
function samlSettingsOf(
  form: FormOf<"saml">,
  before: SamlProvider | null,
): { entityId: string; ssoUrl: string; certificates: string[] } {
  if (form.metadata) {
    const read = readIdpMetadata(form.metadata);
    if (!read.ok) throw new ValidationError({ metadata: [read.message] });
    if (!isAllowedSsoUrl(read.settings.ssoUrl)) {
      throw new ValidationError({
        metadata: ["The metadata's sign-in URL must use https (http only on 127.0.0.1 or localhost)"],
      });
    }
    return read.settings;
  }
  const errors: Record<string, string[]> = {};
  if (!form.entityId) {
    errors.entityId = ["Enter the provider's entity ID (its issuer), or paste its metadata"];
  }
  if (!form.ssoUrl) errors.ssoUrl = ["Enter the provider's sign-in URL, or paste its metadata"];
  let certificates = before?.certificates ?? null;
  if (form.certificate) {
    const read = readCertificates(form.certificate);
    if (read.ok) certificates = read.certificates;
    else errors.certificate = [read.message];
  } else if (!certificates) {
    errors.certificate = [
      before
        ? "The stored certificates cannot be read with this server's secret: paste the certificate again"
        : "Paste the provider's signing certificate, or its metadata",
    ];
  }
  if (Object.keys(errors).length > 0 || !form.entityId || !form.ssoUrl || !certificates) {
    throw new ValidationError(errors);
  }
  return { entityId: form.entityId, ssoUrl: form.ssoUrl, certificates };
}
