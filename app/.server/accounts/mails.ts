import { env } from "../platform/env";
import { actionMail, sendMailLater } from "../platform/mail";
import { getSiteSettings } from "../platform/site-settings";

/**
 * The account mails. A name appears only in mail to an address its owner has
 * confirmed, and then it is the name that owner gave: nothing a stranger
 * types is ever written into a mail sent from the company's address.
 */
async function companyName() {
  return (await getSiteSettings()).companyName;
}

function greeting(user: { emailVerified: boolean; firstName?: string | null }) {
  return user.emailVerified && user.firstName ? `Hello ${user.firstName},` : "Hello,";
}

export async function sendConfirmationMail(to: string, link: string) {
  const name = await companyName();
  sendMailLater(
    actionMail({
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
  const name = await companyName();
  sendMailLater(
    actionMail({
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
  const name = await companyName();
  sendMailLater(
    actionMail({
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
