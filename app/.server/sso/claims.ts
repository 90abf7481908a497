import type { ssoLogins } from "../platform/db/schema";

/**
 * What a provider says of the person, whichever protocol brought it: who they
 * are at the provider (issuer and subject; for SAML the entity ID and the
 * NameID), whether it vouches for the address, and its text claims by their
 * OpenID Connect names (a SAML provider's attributes are read into those
 * names by sso/saml.ts), which the card fields' definitions name.
 */
export type ProviderClaims = NonNullable<(typeof ssoLogins.$inferSelect)["claims"]>;
