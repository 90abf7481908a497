import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { IdentityProtocol } from "~/lib/identity-protocols";
import { can } from "~/lib/permissions";
import { changedFields, recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { isAdminEmail } from "../platform/admins";
import { db, type Queryable } from "../platform/db/client";
import { isUniqueViolation } from "../platform/db/errors";
import { identityProviderDomains, identityProviders } from "../platform/db/schema";
import { domainOf } from "../platform/email-domains";
import { ForbiddenError, NotFoundError, ValidationError } from "../platform/errors";
import { type AuditedSettings, type Provider, type ProviderRow, protocolOf } from "./protocols";
import type { CertificateSummary, SamlProvider } from "./saml";
import type { ProviderForm } from "./schemas";

export type { Provider } from "./protocols";

/** A provider as the settings screen shows it: never its secret or certificates, only whether they are readable. */
export type ProviderSummary = Pick<
  Provider,
  "id" | "name" | "issuer" | "domains" | "requireSso" | "refreshCard" | "verifiesAddresses"
> & {
  protocol: IdentityProtocol;
  clientId: string | null;
  ssoUrl: string | null;
  idpInitiated: boolean;
  secret: "set" | "unreadable";
  certificates: CertificateSummary[];
  /** Whether "Check again" can read anything from the provider (its discovery document). */
  rereadable: boolean;
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

type Row = ProviderRow;

/** A provider this server can sign people in with: what its protocol stored could be opened. */
export function hasSecret(provider: Provider): boolean {
  return protocolOf(provider).ready(provider);
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
  return { ...base, ...protocolOf(row).open(row) } as Provider;
}

function summarized(row: Row): ProviderSummary {
  const provider = opened(row);
  return {
    id: row.id,
    protocol: row.protocol,
    name: row.name,
    issuer: row.issuer,
    domains: row.domains,
    requireSso: row.requireSso,
    refreshCard: row.refreshCard,
    verifiesAddresses: row.verifiesAddresses,
    ...protocolOf(provider).summary(provider),
    secret: hasSecret(provider) ? "set" : "unreadable",
    rereadable: protocolOf(provider).recheck !== null,
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
  return provider?.protocol === "saml" && provider.certificates !== null
    ? { ...provider, certificates: provider.certificates }
    : null;
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
type Audited = AuditedSettings & {
  name: string;
  domains: string[];
  requireSso: boolean;
  refreshCard: boolean;
  verifiesAddresses: boolean;
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
  return { ...provider, ...protocolOf(provider).audited(provider) };
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
  const protocol = protocolOf(form);
  const settings = await protocol.settingsOf(form, before, providerId);
  const values: Omit<typeof identityProviders.$inferInsert, "id"> = {
    ...settings.columns,
    name: form.name,
    requireSso: form.requireSso,
    // Kept while it stays required; a provider newly required is required from now.
    requiredSince: !form.requireSso ? null : before?.requireSso ? undefined : new Date(),
    refreshCard: form.refreshCard,
    verifiesAddresses: form.verifiesAddresses,
  };
  const after: Audited = { ...common, ...settings.audited };

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
    throw new ValidationError(protocol.issuerTaken(form));
  }
  protocol.forget(providerId);
  return { id: providerId, name: form.name };
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
  protocolOf(removed).forget(id);
  return { name: removed.name };
}

/**
 * Reads again what a provider publishes about itself ("Check again": its
 * discovery document), so that a change at the provider is taken at once
 * rather than when what was read grows old. Says why when it cannot be read.
 */
export async function recheckProvider({ actor, id }: { actor: Actor; id: string }) {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  const provider = await getProvider(id);
  if (!provider) throw new NotFoundError("provider");
  const recheck = protocolOf(provider).recheck;
  const result = recheck ? await recheck(provider) : ({ ok: true } as const);
  return { name: provider.name, ...result };
}
