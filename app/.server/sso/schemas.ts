import { z } from "zod";
import { DomainListSchema } from "../settings/schemas";
import { TextSchema, tooLongMessage } from "../validation";

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

/** The provider form. An empty secret on an existing provider keeps the stored one. */
export const ProviderFormSchema = z.object({
  name: TextSchema("Display name").pipe(
    z
      .string()
      .min(1, "Enter the name people see on the button, such as Okta")
      .max(60, tooLongMessage("Display name", 60)),
  ),
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
  domains: DomainListSchema(MAX_PROVIDER_DOMAINS).refine((domains) => domains.length > 0, {
    message: "List the email domains this provider signs in, such as example.com",
  }),
  requireSso: checkbox("Tick the box to require single sign-on"),
  refreshCard: checkbox("Tick the box to refresh cards at each sign-in"),
});

export type ProviderForm = z.infer<typeof ProviderFormSchema>;

export const ProviderIdSchema = z.object({ id: z.uuid("Choose a provider from the list") });
