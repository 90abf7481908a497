import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from "@simplewebauthn/browser";
import { Fingerprint } from "lucide-react";
import { useEffect, useState } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";

/**
 * Passkeys need the browser's WebAuthn, so these buttons appear only once
 * JavaScript runs in a browser that has it; everything else works without them.
 */
function useWebAuthn(): boolean {
  const [supported, setSupported] = useState(false);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  return supported;
}

/** What the person reads when the ceremony did not finish: their device's refusal, in words. */
function ceremonyMessage(error: unknown, cancelled: string): string {
  if (error instanceof WebAuthnError && error.code === "ERROR_CEREMONY_ABORTED") return cancelled;
  if (error instanceof DOMException && (error.name === "NotAllowedError" || error.name === "AbortError")) {
    return cancelled;
  }
  if (error instanceof WebAuthnError && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") {
    return "This device has a passkey for your account already.";
  }
  return error instanceof Error && error.message ? error.message : "Your device could not use a passkey.";
}

async function readMessage(response: Response, fallback: string): Promise<string> {
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  if (response.status === 429) return "Too many attempts. Please wait a minute and try again.";
  return body?.message && response.status < 500 ? body.message : fallback;
}

/**
 * Signs in with a passkey: the browser offers the passkeys it holds for this
 * site, the person unlocks one, and better-auth checks its signature.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const supported = useWebAuthn();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!supported) return null;
  async function signIn() {
    setBusy(true);
    setError(null);
    try {
      const options = await fetch("/api/auth/passkey/generate-authenticate-options", { credentials: "same-origin" });
      if (!options.ok) throw new Error(await readMessage(options, "Signing in with a passkey is not available now."));
      const answer = await startAuthentication({ optionsJSON: await options.json() });
      const verified = await fetch("/api/auth/passkey/verify-authentication", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ response: answer }),
      });
      if (!verified.ok) {
        setError(
          verified.status === 401
            ? "That passkey is not one of this site's. Sign in with your password, then add it on your Security page."
            : await readMessage(verified, "Your passkey could not be checked. Try again."),
        );
        return;
      }
      window.location.assign(redirectTo || "/");
    } catch (caught) {
      setError(ceremonyMessage(caught, "Signing in with a passkey was cancelled."));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="space-y-3">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button type="button" variant="secondary" size="lg" className="w-full" onClick={signIn} disabled={busy}>
        <Fingerprint aria-hidden className="size-4" />
        {busy ? "Waiting for your passkey..." : "Sign in with a passkey"}
      </Button>
    </div>
  );
}

/**
 * Adds a passkey to the signed-in account: the security page's action gives
 * the options (and keeps their challenge), the device makes the key, and the
 * same action keeps its public half.
 */
export function AddPasskey({ action, onAdded }: { action: string; onAdded: () => void }) {
  const supported = useWebAuthn();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  if (!supported) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        This browser cannot make passkeys. Open this page in a current browser on your phone or computer.
      </p>
    );
  }
  async function add() {
    setBusy(true);
    setError(null);
    try {
      const body = new URLSearchParams({ intent: "passkey-options", password });
      const options = await fetch(action, { method: "POST", body, headers: { accept: "application/json" } });
      if (!options.ok) throw new Error(await readMessage(options, "Passkeys cannot be added now."));
      const { options: optionsJSON } = (await options.json()) as {
        options: Parameters<typeof startRegistration>[0]["optionsJSON"];
      };
      const made = await startRegistration({ optionsJSON });
      const saved = await fetch(action, {
        method: "POST",
        headers: { accept: "application/json" },
        body: new URLSearchParams({ intent: "passkey-add", name, response: JSON.stringify(made) }),
      });
      if (!saved.ok) {
        setError(await readMessage(saved, "Your passkey could not be saved. Try again."));
        return;
      }
      setName("");
      setPassword("");
      onAdded();
    } catch (caught) {
      setError(ceremonyMessage(caught, "Adding a passkey was cancelled."));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="space-y-3">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="passkey-password" className="mb-1.5 block text-sm font-medium">
            Your password
          </label>
          <input
            id="passkey-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
        </div>
        <div className="flex-1">
          <label htmlFor="passkey-name" className="mb-1.5 block text-sm font-medium">
            Name <span className="font-normal text-slate-500 dark:text-slate-400">(optional)</span>
          </label>
          <input
            id="passkey-name"
            value={name}
            maxLength={60}
            onChange={(event) => setName(event.currentTarget.value)}
            placeholder="My phone"
            className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
        </div>
        <Button type="button" onClick={add} disabled={busy}>
          <Fingerprint aria-hidden className="size-4" />
          {busy ? "Waiting for your device..." : "Add a passkey"}
        </Button>
      </div>
    </div>
  );
}
