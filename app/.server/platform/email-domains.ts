import { domainToASCII } from "node:url";
import { z } from "zod";
import { TextSchema } from "./validation";

/** E-mail domains as the join rule and brands compare them: lower case, international names in ASCII. */

/** The domain of an address in the form rules compare (lower case, international names in ASCII). */
export function domainOf(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return "";
  return domainToASCII(
    email
      .slice(at + 1)
      .trim()
      .toLowerCase(),
  );
}

/** A stored or typed list of domains: one a line (commas and spaces also separate them). */
export function splitDomains(text: string | null | undefined): string[] {
  return (text ?? "")
    .split(/[\s,;]+/)
    .map((domain) => domain.trim())
    .filter((domain) => domain !== "");
}

/** Whether an address is at one of the domains, or at a subdomain of one. */
export function atListedDomain(email: string, domains: readonly string[]): boolean {
  const domain = domainOf(email);
  return domain !== "" && domains.some((listed) => domain === listed || domain.endsWith(`.${listed}`));
}

/** A domain name of two labels or more, in ASCII (international names are converted first). */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A typed domain as the rule keeps it, or "" when it is not one: "@Example.com" and "*.example.com" are example.com. */
function normalDomain(typed: string): string {
  const ascii = domainToASCII(typed.toLowerCase().replace(/^@/, "").replace(/^\*\./, "").replace(/\.$/, ""));
  return DOMAIN.test(ascii) ? ascii : "";
}

/** A typed list of domains (one a line; commas and spaces also separate them), each once, in ASCII. */
export const DomainListSchema = (max: number) =>
  TextSchema("Domains", { multiline: true })
    .pipe(z.string().max(10_000, `List at most ${max} domains`))
    .transform((value, context) => {
      const typed = splitDomains(value);
      const wrong = typed.filter((domain) => !normalDomain(domain));
      if (wrong.length > 0) {
        context.addIssue({
          code: "custom",
          message: `${wrong.map((domain) => `"${domain.slice(0, 80)}"`).join(", ")} ${wrong.length === 1 ? "is not a domain name" : "are not domain names"}. Enter domains such as example.com, one a line.`,
        });
        return z.NEVER;
      }
      const domains = [...new Set(typed.map(normalDomain))];
      if (domains.length > max) {
        context.addIssue({ code: "custom", message: `List at most ${max} domains` });
        return z.NEVER;
      }
      return domains;
    });
