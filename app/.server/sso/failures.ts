import { desc, eq, sql } from "drizzle-orm";
import type { IdentityProtocol } from "~/lib/identity-protocols";
import { db } from "../platform/db/client";
import { ssoFailures } from "../platform/db/schema";
import { samlAcsUrl } from "./saml";

/**
 * A provider's sign-ins that ended without a session, kept for its
 * administrators with the reason in plain words and what to change, as the
 * provisioning screen shows a connection's refused requests. The person at
 * the sign-in page reads only the short message of sso/messages.ts.
 */

/** How many failures are kept per provider. */
const KEPT_FAILURES = 20;

export type SignInFailure = { at: Date; what: string; change: string };

export async function recordSignInFailure(providerId: string, code: string, reason: string) {
  await db.insert(ssoFailures).values({ providerId, code: code.slice(0, 40), reason: reason.slice(0, 500) });
  await db.execute(sql`
    delete from ${ssoFailures} where ${ssoFailures.providerId} = ${providerId} and ${ssoFailures.id} not in (
      select ${ssoFailures.id} from ${ssoFailures} where ${ssoFailures.providerId} = ${providerId}
      order by ${ssoFailures.id} desc limit ${KEPT_FAILURES})`);
}

/** Records a failure where a failure to keep it must change nothing for the person (a route's refusal). */
export async function noteSignInFailure(providerId: string, code: string, reason: string) {
  await recordSignInFailure(providerId, code, reason).catch(() => {});
}

/** The newest failures of a provider, each in plain words with what to change. */
export async function recentFailures(
  providerId: string,
  protocol: IdentityProtocol,
  limit = 5,
): Promise<SignInFailure[]> {
  const rows = await db
    .select()
    .from(ssoFailures)
    .where(eq(ssoFailures.providerId, providerId))
    .orderBy(desc(ssoFailures.id))
    .limit(limit);
  return rows.map((row) => ({ at: row.createdAt, ...adviceFor(row.code, row.reason, protocol) }));
}

/**
 * What a failure means for the administrator, by the code the person was
 * shown and the check's own reason: what happened, and what to change.
 */
export function adviceFor(code: string, reason: string, protocol: IdentityProtocol): Omit<SignInFailure, "at"> {
  const saml = protocol === "saml";
  switch (code) {
    case "no-email":
      return {
        what: "The provider sent no e-mail address.",
        change: saml
          ? "Send the address as the NameID (emailAddress format) or as a mail or email attribute."
          : "Allow the email scope for Namecard at the provider, and release the email claim.",
      };
    case "unverified-email":
      return {
        what: "The provider says the person's address is not verified.",
        change: "Verify the address at the provider, then ask the person to sign in again.",
      };
    case "domain":
      return {
        what: "The provider vouched for an address of a domain it may not sign in here.",
        change: "If the domain is the company's, add it to this provider's domains in Namecard.",
      };
    case "link-unverified":
      return {
        what: "An account with this address exists, and the provider did not say the address is verified.",
        change:
          "If the provider owns these domains, tick “The provider verifies the addresses of these domains” for it; otherwise have it send email_verified.",
      };
    case "taken":
      return {
        what: "The address is already linked to another person at this provider.",
        change: "Check that the person has one account at the provider, and that its subject did not change.",
      };
    case "break-glass":
      return {
        what: "An address of ADMIN_EMAILS tried to sign in through the provider.",
        change:
          "Nothing: these addresses sign in with their password only, so that a broken provider cannot lock you out.",
      };
    case "not-allowed":
      return {
        what: "Who can join does not let this address in.",
        change: "Invite the person, or widen Settings → Who can join.",
      };
    case "deactivated":
      return {
        what: "The person's card is deactivated.",
        change: "Reactivate the card under Manage Profiles if they should sign in.",
      };
    case "expired":
      return {
        what: "The sign-in took too long, was finished in another browser, or was used twice.",
        change: "Nothing, unless it repeats: then check that this server's clock is right.",
      };
    case "unavailable":
      return {
        what: "The provider could not be reached, or its secret cannot be read with this server's secret.",
        change:
          "Check the issuer URL and that this server can reach the provider; if the screen says so, enter the secret again.",
      };
    case "wrong-endpoint":
      return {
        what: "The provider posted a SAML answer to the OpenID Connect redirect URL.",
        change: `Give the provider Namecard's ACS URL instead: ${samlAcsUrl()}.`,
      };
  }
  return failedCheck(reason, saml);
}

/** A refused answer, by which check refused it. */
function failedCheck(reason: string, saml: boolean): Omit<SignInFailure, "at"> {
  const said = (what: string, change: string) => ({ what, change });
  if (/invalid_client/.test(reason)) {
    return said(
      "The provider refused Namecard's client ID or secret.",
      "Check the client ID, and enter the client secret again in Namecard (copy it anew from the provider).",
    );
  }
  if (/another issuer|names another issuer/.test(reason)) {
    return said(
      `The answer names another issuer than the one saved (${reason}).`,
      "Save the provider with its issuer exactly as the provider names it, trailing slash included.",
    );
  }
  if (/transient NameID/.test(reason)) {
    return said(
      "The provider sent a transient NameID, which changes at every sign-in.",
      "Set the NameID format for Namecard to persistent (or emailAddress) at the provider.",
    );
  }
  if (/not signed/.test(reason)) {
    return said(
      "The provider's assertion is not signed.",
      "Have the provider sign the assertion (not only the response), with SHA-256 or stronger.",
    );
  }
  if (/algorithm/.test(reason)) {
    return said(
      `The answer uses an algorithm Namecard refuses (${reason}).`,
      "Set the provider to sign with RSA-SHA256 and digest with SHA-256.",
    );
  }
  if (/signature/i.test(reason)) {
    return said(
      "The answer's signature does not match the certificate saved for this provider.",
      "Paste the provider's current metadata or signing certificate again: it may have changed.",
    );
  }
  if (/Destination|Recipient|Audience|audience/.test(reason)) {
    return said(
      `The answer is addressed elsewhere (${reason}).`,
      saml
        ? "Give the provider Namecard's entity ID and ACS URL as this page shows them."
        : "Register the redirect URL this page shows at the provider.",
    );
  }
  return said(`The provider's answer was refused: ${reason}.`, "Compare the provider's settings with this page.");
}
