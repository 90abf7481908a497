import { Form } from "react-router";
import { Field } from "~/components/forms";
import { Button } from "~/components/ui/button";

/** What the set-up shows once the password was right (app/.server/http/factors.ts). */
export type SetupShown = { uri: string; key: string; qr: string; recoveryCodes: string[] };

/** The first step: the account's password, so that a session left open cannot add a factor of someone else's. */
export function PasswordStep({
  errors,
  busy,
  submitLabel,
  redirectTo,
}: {
  errors?: string[];
  busy: boolean;
  submitLabel: string;
  redirectTo?: string;
}) {
  return (
    <Form method="post" className="space-y-4" noValidate>
      <input type="hidden" name="intent" value="app-begin" />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <Field
        label="Your password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        errors={errors}
      />
      <Button type="submit" disabled={busy}>
        {busy ? "Checking..." : submitLabel}
      </Button>
    </Form>
  );
}

/** Recovery codes, each usable once: shown once, to keep on paper or in a password manager. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">Your recovery codes</h3>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        If you lose your phone, each of these codes signs you in once instead of the app. Keep them somewhere safe, such
        as a password manager; they are shown only now.
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-lg bg-slate-50 p-4 font-mono text-sm dark:bg-slate-950"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}

/** The second step: scan the code (or type the key), keep the recovery codes, and enter the app's first code. */
export function ScanStep({
  setup,
  errors,
  busy,
  redirectTo,
}: {
  setup: SetupShown;
  errors?: string[];
  busy: boolean;
  redirectTo?: string;
}) {
  return (
    <div className="space-y-6">
      <ol className="list-decimal space-y-2 ps-5 text-sm text-slate-700 dark:text-slate-300">
        <li>
          Open an authenticator app on your phone, such as Google Authenticator, Microsoft Authenticator or 1Password.
        </li>
        <li>Scan this code with it, or type the key below.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        <div
          role="img"
          aria-label="QR code to add Namecard to your authenticator app"
          className="size-[200px] shrink-0 rounded-lg bg-white p-1"
          // An SVG drawn on the server by the qrcode package from the app's address.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the markup is our own QR code
          dangerouslySetInnerHTML={{ __html: setup.qr }}
        />
        <div className="min-w-0 space-y-1 text-sm">
          <p className="font-medium">Key</p>
          <p className="font-mono break-words select-all">{setup.key}</p>
          <p className="text-slate-500 dark:text-slate-400">Time-based, 6 digits, every 30 seconds.</p>
        </div>
      </div>
      {setup.recoveryCodes.length > 0 ? <RecoveryCodes codes={setup.recoveryCodes} /> : null}
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="intent" value="app-confirm" />
        <input type="hidden" name="uri" value={setup.uri} />
        <input type="hidden" name="recoveryCodes" value={setup.recoveryCodes.join(" ")} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Field
          label="Code from the app"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          required
          errors={errors}
          className="max-w-48"
        />
        <Button type="submit" disabled={busy}>
          {busy ? "Checking..." : "Turn on"}
        </Button>
      </Form>
    </div>
  );
}
