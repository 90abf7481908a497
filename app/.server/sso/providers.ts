import { randomUUID } from "node:crypto";
import { asc, eq, inArray, sql } from "drizzle-orm";
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
import type { ProviderForm } from "./schemas";
import { openSecret, sealSecret } from "./secrets";

/** A provider as sign-in uses it: with its secret opened, or null when it cannot be. */
export type Provider = {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  domains: string[];
  requireSso: boolean;
  refreshCard: boolean;
  /** Where its sign-in page is: a page that sends people there lets its forms lead to it. */
  authorizationOrigin: string;
  updatedAt: Date;
};

/** A provider as the settings screen shows it: never its secret, only whether it is set and readable. */
export type ProviderSummary = Omit<Provider, "clientSecret" | "updatedAt" | "authorizationOrigin"> & {
  secret: "set" | "unreadable";
};

/** What /auth offers: a button per provider, which domains each signs in, and where its sign-in page is. */
export type SignInProvider = { id: string; name: string; domains: string[]; authorizationOrigin: string };

const domainsOf = sql<
  string[]
>`coalesce((select array_agg(d.domain order by d.domain) from ${identityProviderDomains} d where d.provider_id = ${identityProviders.id}), '{}')`;

const COLUMNS = {
  id: identityProviders.id,
  name: identityProviders.name,
  issuer: identityProviders.issuer,
  clientId: identityProviders.clientId,
  clientSecret: identityProviders.clientSecret,
  requireSso: identityProviders.requireSso,
  refreshCard: identityProviders.refreshCard,
  authorizationOrigin: identityProviders.authorizationOrigin,
  updatedAt: identityProviders.updatedAt,
  domains: domainsOf,
};

type Row = { [Key in keyof typeof COLUMNS]: Key extends "domains" ? string[] : Provider[Exclude<Key, "domains">] } & {
  clientSecret: string;
};

/** A provider whose secret this server can open: the only kind a sign-in can use. */
export function hasSecret(provider: Provider): provider is Provider & { clientSecret: string } {
  return provider.clientSecret !== null;
}

function opened(row: Row): Provider {
  return { ...row, clientSecret: openSecret(row.clientSecret, row.id) };
}

export async function listProviders(): Promise<ProviderSummary[]> {
  const rows = (await db.select(COLUMNS).from(identityProviders).orderBy(asc(identityProviders.name))) as Row[];
  return rows.map(({ clientSecret, updatedAt, authorizationOrigin, ...row }) => ({
    ...row,
    secret: openSecret(clientSecret, row.id) === null ? "unreadable" : "set",
  }));
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

function audited(provider: Pick<Provider, "name" | "issuer" | "clientId" | "domains" | "requireSso" | "refreshCard">) {
  return {
    name: provider.name,
    issuer: provider.issuer,
    clientId: provider.clientId,
    domains: provider.domains.join(", "),
    requireSso: provider.requireSso ? "yes" : "no",
    refreshCard: provider.refreshCard ? "yes" : "no",
  };
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
  const taken = await takenDomains(db, form.domains, id);
  if (taken.length > 0) throw new ValidationError({ domains: [takenMessage(taken)] });
  const discovered = await checkDiscovery(form.issuer);
  if (!discovered.ok) throw new ValidationError({ issuer: [discovered.message] });

  const providerId = id ?? randomUUID();
  const values = {
    name: form.name,
    issuer: form.issuer,
    clientId: form.clientId,
    clientSecret: sealSecret(secret, providerId),
    authorizationOrigin: discovered.authorizationOrigin,
    requireSso: form.requireSso,
    refreshCard: form.refreshCard,
  };
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
        changes: changedFields(before ? audited(before) : null, audited(form)),
      });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another save took a domain or the issuer meanwhile: say which.
    const raced = await takenDomains(db, form.domains, id);
    if (raced.length > 0) throw new ValidationError({ domains: [takenMessage(raced)] });
    throw new ValidationError({ issuer: ["Another provider already has this issuer"] });
  }
  forgetConfiguration(providerId);
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
      changes: Object.fromEntries(Object.entries(audited(before)).map(([field, value]) => [field, [value, null]])),
    });
    return before;
  });
  forgetConfiguration(id);
  return { name: removed.name };
}
