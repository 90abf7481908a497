import { KeyRound, PlugZap, ShieldCheck, Wallet } from "lucide-react";
import { ButtonLink } from "../ui/button";
import { SETTINGS_PANEL } from "./settings-form";

const ROW =
  "flex flex-col gap-4 border-t border-slate-200 pt-5 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800";

/** Who is an administrator and how the site is protected, with the ways to the sign-in and provisioning pages. */
export function SecurityPanel({
  adminEmail,
  adminCount,
  ssoProviders,
}: {
  adminEmail: string;
  adminCount: number;
  ssoProviders: string[];
}) {
  return (
    <div className={SETTINGS_PANEL}>
      <div className="flex gap-3">
        <ShieldCheck aria-hidden className="size-6 shrink-0 text-emerald-600" />
        <div className="space-y-3 text-sm text-slate-700 dark:text-slate-300">
          <p>
            <strong>Administrators are a role.</strong> Give it and take it back on the Profiles page. The addresses in
            the server's <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">ADMIN_EMAILS</code> setting (
            {adminCount} {adminCount === 1 ? "address" : "addresses"}) are always administrators, and keep their
            password even where single sign-on is required; once it is, they must also use a second step at sign-in.
          </p>
          <p>
            You are signed in as <strong>{adminEmail}</strong>.
          </p>
          <p>
            <strong>Authorization is enforced on the server</strong> for every page and every action, whatever the
            browser shows or sends. Members can change only their own card; claim status is never sent to them.
          </p>
          <p>
            Accounts need a confirmed email address, sign-in attempts are rate-limited, and sessions are kept in
            httpOnly cookies.
          </p>
        </div>
      </div>
      <div className={ROW}>
        <div className="space-y-1">
          <h2 className="text-base font-semibold">Single sign-on</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {ssoProviders.length === 0
              ? "People sign in with a password. Connect your identity provider to let them use it instead."
              : `People of your provider's domains sign in with ${ssoProviders.join(", ")}.`}
          </p>
        </div>
        <ButtonLink to="/admin/settings/single-sign-on" variant="secondary" className="shrink-0">
          <KeyRound aria-hidden className="size-4" />
          {ssoProviders.length === 0 ? "Set up single sign-on" : "Manage single sign-on"}
        </ButtonLink>
      </div>
      <div className={ROW}>
        <div className="space-y-1">
          <h2 className="text-base font-semibold">Provisioning</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Let your identity provider create, update and switch off cards by itself (SCIM 2.0).
          </p>
        </div>
        <ButtonLink to="/admin/settings/provisioning" variant="secondary" className="shrink-0">
          <PlugZap aria-hidden className="size-4" />
          Provisioning
        </ButtonLink>
      </div>
      <div className={ROW}>
        <div className="space-y-1">
          <h2 className="text-base font-semibold">Wallet passes</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Let members keep their card in Google Wallet, with its QR code.
          </p>
        </div>
        <ButtonLink to="/admin/settings/wallet" variant="secondary" className="shrink-0">
          <Wallet aria-hidden className="size-4" />
          Wallet passes
        </ButtonLink>
      </div>
    </div>
  );
}
