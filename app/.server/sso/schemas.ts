import { z } from "zod";
import { DomainListSchema } from "../platform/email-domains";
import { TextSchema, tooLongMessage } from "../platform/validation";

/** How many domains one provider may sign in. */
const MAX_PROVIDER_DOMAINS = 50;

/**
 * Hosts an issuer may use over plain http: this machine only, which local
 * testing needs. Anything else must be https, or a stranger on the network
 * could stand in for the provider.
 */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

function isAllowedIssuer(url: URL): boolean {
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

export function isLoopbackIssuer(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

const checkbox = (message: string) =>
  z
    .enum(["", "on"], { message })
    .optional()
    .transform((value) => value === "on");

const ISSUER_MESSAGE =
  "Enter the provider's issuer URL, such as https://login.example.com: https, without a query (http only for 127.0.0.1 or localhost)";

const ProviderNameSchema = TextSchema("Display name").pipe(
  z
    .string()
    .min(1, "Enter the name people see on the button, such as Okta")
    .max(60, tooLongMessage("Display name", 60)),
);

/** What every provider's form has, whichever protocol it speaks. */
const CommonFields = {
  name: ProviderNameSchema,
  domains: DomainListSchema(MAX_PROVIDER_DOMAINS).refine((domains) => domains.length > 0, {
    message: "List the email domains this provider signs in, such as example.com",
  }),
  requireSso: checkbox("Tick the box to require single sign-on"),
  refreshCard: checkbox("Tick the box to refresh cards at each sign-in"),
  verifiesAddresses: checkbox("Tick the box if the provider verifies the addresses of these domains"),
};

/** The OpenID Connect provider form. An empty secret on an existing provider keeps the stored one. */
const OidcFormSchema = z.object({
  protocol: z.literal("oidc"),
  ...CommonFields,
  issuer: TextSchema("Issuer URL")
    .pipe(z.string().min(1, ISSUER_MESSAGE).max(500, tooLongMessage("Issuer URL", 500)))
    .transform((value, context) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        context.addIssue({ code: "custom", message: ISSUER_MESSAGE });
        return z.NEVER;
      }
      if (!isAllowedIssuer(url)) {
        context.addIssue({ code: "custom", message: ISSUER_MESSAGE });
        return z.NEVER;
      }
      return value;
    }),
  clientId: TextSchema("Client ID").pipe(
    z.string().min(1, "Enter the client ID the provider gave Namecard").max(500, tooLongMessage("Client ID", 500)),
  ),
  clientSecret: TextSchema("Client secret")
    .pipe(z.string().max(2000, tooLongMessage("Client secret", 2000)))
    .optional()
    .transform((value) => value || null),
});

const SSO_URL_MESSAGE =
  "Enter the provider's sign-in URL for SAML: https, without a fragment (http only for 127.0.0.1 or localhost)";

/** Metadata is a few kilobytes; a provider with many certificates sends tens. Percent-encoded, it fits MAX_SAML_FORM_BYTES. */
const MAX_METADATA_CHARS = 200_000;

const optionalText = (label: string, max: number, options: { multiline?: boolean } = {}) =>
  TextSchema(label, options)
    .pipe(z.string().max(max, tooLongMessage(label, max)))
    .optional()
    .transform((value) => value?.trim() || null);

/**
 * The SAML provider form: the provider's metadata, or its entity ID, sign-in
 * URL and signing certificate typed in (sso/providers.ts reads and checks
 * them). An empty certificate on an existing provider keeps the stored ones.
 */
const SamlFormSchema = z.object({
  protocol: z.literal("saml"),
  ...CommonFields,
  metadata: optionalText("Metadata", MAX_METADATA_CHARS, { multiline: true }),
  entityId: optionalText("Entity ID", 500),
  ssoUrl: optionalText("Sign-in URL", 500).refine((value) => value === null || isAllowedSsoUrl(value), SSO_URL_MESSAGE),
  certificate: optionalText("Signing certificate", 100_000, { multiline: true }),
  idpInitiated: checkbox("Tick the box to let the provider start sign-ins"),
});

/** Whether a SAML sign-in URL may be used: https, or http on this machine. */
export function isAllowedSsoUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username || url.password || url.hash) return false;
  return url.protocol === "https:" || isLoopbackIssuer(url);
}

/** The provider form, of either protocol (a form that names none is an OpenID Connect one). */
export const ProviderFormSchema = z.preprocess(
  (values) =>
    values && typeof values === "object" && !("protocol" in values && values.protocol)
      ? { ...values, protocol: "oidc" }
      : values,
  z.discriminatedUnion("protocol", [OidcFormSchema, SamlFormSchema], {
    error: "Choose OpenID Connect or SAML",
  }),
);

export type ProviderForm = z.infer<typeof ProviderFormSchema>;

export const ProviderIdSchema = z.object({ id: z.uuid("Choose a provider from the list") });
