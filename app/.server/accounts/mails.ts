import { greetingName } from "~/lib/names";
import { env } from "../platform/env";
import { sendMailLater } from "../platform/mail";
import { actionMail, mailSender } from "../platform/mail-layout";

/**
 * The account mails. A name appears only in mail to an address its owner has
 * confirmed, and then it is the name that owner gave: nothing a stranger
 * types is ever written into a mail sent from the company's address.
 */
function greeting(user: { emailVerified: boolean; firstName?: string | null; lastName?: string | null }) {
  if (!user.emailVerified || !user.firstName) return "Hello,";
  return `Hello ${greetingName({ firstName: user.firstName, lastName: user.lastName ?? "" })},`;
}

export async function sendConfirmationMail(to: string, link: string) {
  const sender = await mailSender();
  const { name } = sender;
  sendMailLater(
    actionMail({
      sender,
      to,
      subject: `Confirm your email for ${name}`,
      greeting: "Hello,",
      body: `Confirm your email address to finish creating your ${name} account. If a card was prepared for you under this address, it becomes yours when you confirm.`,
      action: "Confirm my email",
      link,
      footer:
        "The link works for 24 hours, and only the newest link we sent works. If you did not sign up, ignore this message: nothing happens without it.",
    }),
  );
}

export async function sendAlreadyRegisteredMail(user: {
  email: string;
  emailVerified: boolean;
  firstName?: string | null;
}) {
  const sender = await mailSender();
  const { name } = sender;
  sendMailLater(
    actionMail({
      sender,
      to: user.email,
      subject: `You already have a ${name} account`,
      greeting: greeting(user),
      body: `Someone tried to sign up to ${name} with this address, which already has an account. If it was you, sign in with your password, or choose a new password if you have forgotten it.`,
      action: "Sign in",
      link: `${env.PUBLIC_URL}/auth`,
      footer: `Forgotten your password? Choose a new one at ${env.PUBLIC_URL}/auth/forgot-password. If it was not you, ignore this message: your account is unchanged.`,
    }),
  );
}

export async function sendResetMail(
  user: { email: string; emailVerified: boolean; firstName?: string | null },
  link: string,
) {
  const sender = await mailSender();
  const { name } = sender;
  sendMailLater(
    actionMail({
      sender,
      to: user.email,
      subject: `Reset your ${name} password`,
      greeting: greeting(user),
      body: `Someone asked to reset the password of your ${name} account. If it was you, choose a new password with the link below. It works for one hour.`,
      action: "Choose a new password",
      link,
      footer: "If you did not ask for this, ignore this message: your password stays as it is.",
    }),
  );
}

/** What changed of an account's second step, as the mail to its owner says it. */
export type SecondFactorChange =
  | "app-on"
  | "app-off"
  | "new-codes"
  | "passkey-added"
  | "passkey-removed"
  | "removed-by-admin";

const SECOND_FACTOR_CHANGES: Record<SecondFactorChange, string> = {
  "app-on": "An authenticator app was set up for your account: sign-ins with your password now ask for its code.",
  "app-off":
    "The authenticator app of your account was turned off: sign-ins with your password no longer ask for a code.",
  "new-codes": "New recovery codes were made for your account: the old ones no longer work.",
  "passkey-added": "A passkey was added to your account: it signs in without your password.",
  "passkey-removed": "A passkey was removed from your account.",
  "removed-by-admin": "An administrator removed your authenticator app and passkeys, and signed you out everywhere.",
};

/**
 * Tells an account's owner that its second step changed, so that a change they did not make
 * (someone who learned their password, or holds their open session) does not go unnoticed.
 */
export async function sendSecondFactorMail(
  user: { email: string; firstName?: string | null },
  change: SecondFactorChange,
) {
  const sender = await mailSender();
  const { name } = sender;
  sendMailLater(
    actionMail({
      sender,
      to: user.email,
      subject: `Your ${name} sign-in changed`,
      greeting: greeting({ emailVerified: true, firstName: user.firstName }),
      body: SECOND_FACTOR_CHANGES[change],
      action: "Review your sign-in",
      link: `${env.PUBLIC_URL}/account/security`,
      footer:
        "If it was not you, choose a new password now and tell your administrator, who can remove the second step and sign you out everywhere.",
    }),
  );
}
