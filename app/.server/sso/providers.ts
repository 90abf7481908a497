import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { can } from "~/lib/permissions";
import { domainOf } from "../accounts/join-rule";
import type { Actor } from "../actor";
import { isAdminEmail } from "../admins";
import { changedFields, recordAdminAction } from "../audit/record";
import { db, type Queryable } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { identityProviderDomains, identityProviders } from "../db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { checkDiscovery, forgetConfiguration } from "./oidc";
import {
  type CertificateSummary,
  readCertificates,
  readIdpMetadata,
  type SamlProvider,
  summarizeCertificate,
} from "./saml";
import { isAllowedSsoUrl, type ProviderForm } from "./schemas";
import { openSecret, sealSecret } from "./secrets";

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

/** A provider as sign-in uses it: with its secret (or certificates) opened, or null when they cannot be. */
export type Provider =
  | (ProviderBase & { protocol: "oidc"; clientId: string; clientSecret: string | null })
  | (ProviderBase & { protocol: "saml"; ssoUrl: string; certificates: string[] | null; idpInitiated: boolean });

/** A provider as the settings screen shows it: never its secret or certificates, only whether they are readable. */
export type ProviderSummary = Pick<
  ProviderBase,
  "id" | "name" | "issuer" | "domains" | "requireSso" | "refreshCard" | "verifiesAddresses"
> & {
  protocol: "oidc" | "saml";
  clientId: string | null;
  ssoUrl: string | null;
  idpInitiated: boolean;
  secret: "set" | "unreadable";
  certificates: CertificateSummary[];
};

/** What /auth offers: a button per provider, which domains each signs in, and where its sign-in page is. */
export type SignInProvider = { id: string; name: string; domains: string[]; authorizationOrigin: string };

const domainsOf = sql<
  string[]
>`coalesce((select array_agg(d.domain order by d.domain) from ${identityProviderDomains} d where d.provider_id = ${identityProviders.id}), '{}')`;

const COLUMNS = {
  id: identityProviders.id,
  protocol: identityProviders.protocol,
  name: identityProviders.name,
  issuer: identityProviders.issuer,
  clientId: identityProviders.clientId,
  clientSecret: identityProviders.clientSecret,
  ssoUrl: identityProviders.ssoUrl,
  certificates: identityProviders.certificates,
  idpInitiated: identityProviders.idpInitiated,
  requireSso: identityProviders.requireSso,
  refreshCard: identityProviders.refreshCard,
  verifiesAddresses: identityProviders.verifiesAddresses,
  authorizationOrigin: identityProviders.authorizationOrigin,
  updatedAt: identityProviders.updatedAt,
  domains: domainsOf,
};

type Row = Omit<typeof identityProviders.$inferSelect, "createdAt"> & { domains: string[] };

/** A provider this server can sign people in with: its secret or certificates open. */
export function hasSecret(
  provider: Provider,
): provider is
  | (Extract<Provider, { protocol: "oidc" }> & { clientSecret: string })
  | (Extract<Provider, { protocol: "saml" }> & { certificates: string[] }) {
  return provider.protocol === "oidc" ? provider.clientSecret !== null : provider.certificates !== null;
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

function opened(row: Row): Provider {
  const base = {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    domains: row.domains,
    requireSso: row.requireSso,
    refreshCard: row.refreshCard,
    verifiesAddresses: row.verifiesAddresses,
    authorizationOrigin: row.authorizationOrigin,
    updatedAt: row.updatedAt,
  };
  if (row.protocol === "saml") {
    return {
      ...base,
      protocol: "saml",
      ssoUrl: row.ssoUrl ?? "",
      certificates: row.certificates ? openCertificates(row.certificates, row.id) : null,
      idpInitiated: row.idpInitiated,
    };
  }
  return {
    ...base,
    protocol: "oidc",
    clientId: row.clientId ?? "",
    clientSecret: row.clientSecret ? openSecret(row.clientSecret, row.id) : null,
  };
}

function summarized(row: Row): ProviderSummary {
  const provider = opened(row);
  const readable = hasSecret(provider);
  return {
    id: row.id,
    protocol: row.protocol,
    name: row.name,
    issuer: row.issuer,
    domains: row.domains,
    requireSso: row.requireSso,
    refreshCard: row.refreshCard,
    verifiesAddresses: row.verifiesAddresses,
    clientId: row.clientId,
    ssoUrl: row.ssoUrl,
    idpInitiated: row.idpInitiated,
    secret: readable ? "set" : "unreadable",
    certificates: provider.protocol === "saml" ? (provider.certificates ?? []).map(summarizeCertificate) : [],
  };
}

export async function listProviders(): Promise<ProviderSummary[]> {
  const rows = (await db.select(COLUMNS).from(identityProviders).orderBy(asc(identityProviders.name))) as Row[];
  return rows.map(summarized);
}

/** The SAML provider an answer names as its issuer (entity ID). */
export async function samlProviderByIssuer(issuer: string): Promise<SamlProvider | null> {
  const [row] = (await db
    .select(COLUMNS)
    .from(identityProviders)
    .where(and(eq(identityProviders.issuer, issuer), eq(identityProviders.protocol, "saml")))) as Row[];
  const provider = row ? opened(row) : null;
  return provider?.protocol === "saml" && hasSecret(provider) ? provider : null;
}

export async function signInProviders(): Promise<SignInProvider[]> {
  const rows = (await db
    .select({
      id: identityProviders.id,
      name: identityProviders.name,
      domains: domainsOf,
      authorizationOrigin: identityProviders.authorizationOrigin,
    })
    .from(identityProviders)
    .orderBy(asc(identityProviders.name))) as SignInProvider[];
  return rows;
}

export async function getProvider(id: string, queryable: Queryable = db): Promise<Provider | null> {
  const [row] = (await queryable.select(COLUMNS).from(identityProviders).where(eq(identityProviders.id, id))) as Row[];
  return row ? opened(row) : null;
}

/** The provider an address's domain belongs to, if any. */
export async function providerForEmail(email: string): Promise<Provider | null> {
  const domain = domainOf(email);
  if (!domain) return null;
  // One query: this runs on every password sign-in.
  const [row] = (await db
    .select(COLUMNS)
    .from(identityProviders)
    .innerJoin(identityProviderDomains, eq(identityProviderDomains.providerId, identityProviders.id))
    .where(eq(identityProviderDomains.domain, domain))) as Row[];
  return row ? opened(row) : null;
}

/** Whether an address may not use a password because its domain requires `provider`. */
export function requiresProvider(provider: Provider | null, email: string): provider is Provider {
  return !!provider?.requireSso && !isAdminEmail(email);
}

/**
 * The provider an address must sign in through, when its domain requires
 * single sign-on. The addresses in ADMIN_EMAILS always keep their password, so
 * a broken provider cannot lock the company out.
 */
export async function requiredProviderFor(email: string): Promise<Provider | null> {
  if (isAdminEmail(email)) return null;
  const provider = await providerForEmail(email);
  return requiresProvider(provider, email) ? provider : null;
}

/** What the audit log records of a provider: never its secret, nor its certificates (only their fingerprints). */
type Audited = {
  name: string;
  domains: string[];
  requireSso: boolean;
  refreshCard: boolean;
  verifiesAddresses: boolean;
  issuer: string;
  clientId?: string | null;
  ssoUrl?: string | null;
  idpInitiated?: boolean;
  fingerprints?: string[];
};

function audited(provider: Audited) {
  return {
    name: provider.name,
    issuer: provider.issuer,
    ...(provider.clientId ? { clientId: provider.clientId } : {}),
    ...(provider.ssoUrl ? { ssoUrl: provider.ssoUrl } : {}),
    ...(provider.fingerprints ? { certificates: provider.fingerprints.join(", ") } : {}),
    domains: provider.domains.join(", "),
    requireSso: provider.requireSso ? "yes" : "no",
    refreshCard: provider.refreshCard ? "yes" : "no",
    verifiesAddresses: provider.verifiesAddresses ? "yes" : "no",
    ...(provider.idpInitiated !== undefined ? { idpInitiated: provider.idpInitiated ? "yes" : "no" } : {}),
  };
}

function auditedProvider(provider: Provider): Audited {
  return provider.protocol === "saml"
    ? { ...provider, fingerprints: (provider.certificates ?? []).map((pem) => summarizeCertificate(pem).fingerprint) }
    : provider;
}

/** The domains of the list that another provider already signs in, with that provider's name. */
async function takenDomains(queryable: Queryable, domains: string[], id: string | null) {
  if (domains.length === 0) return [];
  const rows = await queryable
    .select({ domain: identityProviderDomains.domain, providerId: identityProviders.id, name: identityProviders.name })
    .from(identityProviderDomains)
    .innerJoin(identityProviders, eq(identityProviders.id, identityProviderDomains.providerId))
    .where(inArray(identityProviderDomains.domain, domains));
  return rows.filter((row) => row.providerId !== id);
}

function takenMessage(taken: { domain: string; name: string }[]) {
  return taken.map(({ domain, name }) => `${domain} already signs in through ${name}`).join("; ");
}

/**
 * Adds a provider, or changes one. The provider's settings are read (OpenID
 * Connect discovery) before anything is stored, so a typo in the issuer is
 * said on the form; the row, its domains and the audit entry are written
 * together. The secret is never recorded; an empty one keeps the stored one.
 */
export async function saveProvider({
  actor,
  id,
  form,
}: {
  actor: Actor;
  /** The provider to change; null adds one. */
  id: string | null;
  form: ProviderForm;
}): Promise<{ id: string; name: string }> {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  const before = id ? await getProvider(id) : null;
  if (id && !before) throw new NotFoundError("provider");
  if (before && before.protocol !== form.protocol) {
    throw new ValidationError({ protocol: ["A provider keeps its protocol: remove it and add the other kind"] });
  }
  const taken = await takenDomains(db, form.domains, id);
  if (taken.length > 0) throw new ValidationError({ domains: [takenMessage(taken)] });
  const providerId = id ?? randomUUID();
  const common = {
    name: form.name,
    domains: form.domains,
    requireSso: form.requireSso,
    refreshCard: form.refreshCard,
    verifiesAddresses: form.verifiesAddresses,
  };
  let values: Omit<typeof identityProviders.$inferInsert, "id">;
  let after: Audited;
  if (form.protocol === "oidc") {
    const secret = form.clientSecret ?? (before?.protocol === "oidc" ? before.clientSecret : null);
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
    values = {
      protocol: "oidc",
      name: form.name,
      issuer: form.issuer,
      clientId: form.clientId,
      clientSecret: sealSecret(secret, providerId),
      authorizationOrigin: discovered.authorizationOrigin,
      requireSso: form.requireSso,
      refreshCard: form.refreshCard,
      verifiesAddresses: form.verifiesAddresses,
    };
    after = { ...common, issuer: form.issuer, clientId: form.clientId };
  } else {
    const settings = samlSettingsOf(form, before?.protocol === "saml" ? before : null);
    values = {
      protocol: "saml",
      name: form.name,
      issuer: settings.entityId,
      ssoUrl: settings.ssoUrl,
      certificates: sealSecret(JSON.stringify(settings.certificates), providerId),
      idpInitiated: form.idpInitiated,
      authorizationOrigin: new URL(settings.ssoUrl).origin,
      requireSso: form.requireSso,
      refreshCard: form.refreshCard,
      verifiesAddresses: form.verifiesAddresses,
    };
    after = {
      ...common,
      issuer: settings.entityId,
      ssoUrl: settings.ssoUrl,
      idpInitiated: form.idpInitiated,
      fingerprints: settings.certificates.map((pem) => summarizeCertificate(pem).fingerprint),
    };
  }

  try {
    await db.transaction(async (tx) => {
      if (before) {
        await tx.update(identityProviders).set(values).where(eq(identityProviders.id, providerId));
        await tx.delete(identityProviderDomains).where(eq(identityProviderDomains.providerId, providerId));
      } else {
        await tx.insert(identityProviders).values({ id: providerId, ...values });
      }
      await tx.insert(identityProviderDomains).values(form.domains.map((domain) => ({ domain, providerId })));
      await recordAdminAction(tx, {
        actor,
        action: before ? "update" : "create",
        target: { kind: "provider", id: providerId, label: form.name },
        changes: changedFields(before ? audited(auditedProvider(before)) : null, audited(after)),
      });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another save took a domain or the issuer meanwhile: say which.
    const raced = await takenDomains(db, form.domains, id);
    if (raced.length > 0) throw new ValidationError({ domains: [takenMessage(raced)] });
    throw new ValidationError(
      form.protocol === "oidc"
        ? { issuer: ["Another provider already has this issuer"] }
        : { [form.metadata ? "metadata" : "entityId"]: ["Another provider already has this entity ID"] },
    );
  }
  forgetConfiguration(providerId);
  return { id: providerId, name: form.name };
}

/**
 * A SAML provider's settings from its form: its metadata when pasted, else
 * the entity ID, sign-in URL and certificate typed in; an empty certificate
 * keeps the stored ones. Each is checked, and a mistake said on its field.
 */
function samlSettingsOf(
  form: Extract<ProviderForm, { protocol: "saml" }>,
  before: Extract<Provider, { protocol: "saml" }> | null,
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

/**
 * Removes a provider: its people sign in with a password again (their
 * accounts stay, and their identities, should it be added back).
 */
export async function deleteProvider({ actor, id }: { actor: Actor; id: string }): Promise<{ name: string }> {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  const removed = await db.transaction(async (tx) => {
    const before = await getProvider(id, tx);
    if (!before) throw new NotFoundError("provider");
    await tx.delete(identityProviders).where(eq(identityProviders.id, id));
    await recordAdminAction(tx, {
      actor,
      action: "delete",
      target: { kind: "provider", id, label: before.name },
      changes: Object.fromEntries(
        Object.entries(audited(auditedProvider(before))).map(([field, value]) => [field, [value, null]]),
      ),
    });
    return before;
  });
  forgetConfiguration(id);
  return { name: removed.name };
}
