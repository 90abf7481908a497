/**
 * The identity protocols a provider may speak, as the screens name them. The
 * server's side of each (start, finish, its settings) is in
 * app/.server/sso/protocols.ts, keyed by the same names.
 */
export const IDENTITY_PROTOCOLS = {
  oidc: {
    label: "OpenID Connect",
    /** Said on the provider's card when this server cannot open what it stored. */
    unreadable:
      "Its client secret cannot be read with this server's secret (a backup restored elsewhere?): edit the provider and enter it again.",
  },
  saml: {
    label: "SAML 2.0",
    unreadable:
      "Its certificates cannot be read with this server's secret (a backup restored elsewhere?): edit the provider and paste them again.",
  },
} as const;

export type IdentityProtocol = keyof typeof IDENTITY_PROTOCOLS;

/** The protocols in the order the provider form offers them. */
export const IDENTITY_PROTOCOL_NAMES = Object.keys(IDENTITY_PROTOCOLS) as [IdentityProtocol, ...IdentityProtocol[]];

/** The protocol a link names (`?protocol=saml`); OpenID Connect when it names none we know. */
export function protocolNamed(name: string | null): IdentityProtocol {
  return name !== null && Object.hasOwn(IDENTITY_PROTOCOLS, name) ? (name as IdentityProtocol) : "oidc";
}
