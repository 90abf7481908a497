import { DEACTIVATED_SIGN_IN } from "../profiles/deactivation";

/**
 * What /auth says when a sign-in through a provider did not end in a session,
 * by the code the callback sends there. Only the server's log holds the
 * details (which check failed), never the page.
 */
export const SSO_MESSAGES = {
  expired: "That sign-in was started too long ago, in another browser, or was already used. Please sign in again.",
  failed: "Your company's sign-in could not be completed. Please try again, or ask your administrator.",
  unavailable: "Your company's sign-in cannot be reached right now. Please try again in a moment.",
  "no-email":
    "Your company's sign-in did not tell us your email address. Ask your administrator to send it to Namecard.",
  "unverified-email": "Your company's sign-in says your email address is not verified yet. Ask your administrator.",
  domain: "Your company's sign-in vouched for an address of a domain it may not sign in here. Ask your administrator.",
  "link-unverified":
    "Your address already has a Namecard account, and your company's sign-in did not say the address is verified, so it was not linked to you. Ask your administrator.",
  taken:
    "Your address is already linked to another person at your company's sign-in, so it was not linked to you. Ask your administrator.",
  "break-glass":
    "This address is one of the server's administrator addresses: it signs in with its password, not through a provider.",
  "not-allowed":
    "Your company has not opened Namecard to everyone at your address yet. Ask an administrator to invite you.",
  required: "Your company now signs you in with its provider: use the button below.",
  "wrong-endpoint":
    "Your company's sign-in sent its answer to the wrong address at Namecard. Ask your administrator to give it Namecard's ACS URL.",
  deactivated: DEACTIVATED_SIGN_IN,
} as const;

export type SsoMessageCode = keyof typeof SSO_MESSAGES;

export function ssoMessage(code: string | null): string | null {
  return code && Object.hasOwn(SSO_MESSAGES, code) ? SSO_MESSAGES[code as SsoMessageCode] : null;
}

/** What a person of a domain that requires single sign-on is told instead of using a password. */
export function ssoRequiredMessage(providerName: string): string {
  return `Your company signs you in with ${providerName}: use “Sign in with ${providerName}”.`;
}
