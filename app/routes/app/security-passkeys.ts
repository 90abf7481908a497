import { cookieHeaders } from "~/.server/http/auth";
import { ownerOf, PasskeyNameSchema, passkeyRegistrationOptions, registerPasskey } from "~/.server/http/factors";
import { readForm } from "~/.server/http/form-data";
import { requiredProviderFor } from "~/.server/sso/providers";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/security-passkeys";

/** A passkey's answer from the browser is a few kilobytes of JSON. */
const MAX_RESPONSE_CHARS = 16_384;

function refuse(status: number, message: string) {
  return Response.json({ message }, { status });
}

/**
 * Adds a passkey to the signed-in account, in the two steps WebAuthn takes:
 * the options (whose challenge better-auth keeps in a cookie of its own), then
 * the key the device made. The page's script calls it (components/passkey-button.tsx).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  // A passkey would sign in around the company's provider, which its domain requires.
  const provider = await requiredProviderFor(viewer.user.email);
  if (provider) return refuse(409, `Your company signs you in with ${provider.name}: a passkey cannot be added here.`);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "passkey-options") {
    const made = await passkeyRegistrationOptions(request, ownerOf(viewer), String(form.get("password") ?? ""));
    if ("message" in made) return refuse(made.status, made.message);
    return Response.json({ options: made.options }, { headers: cookieHeaders(made.headers) });
  }
  if (intent !== "passkey-add") return refuse(400, "The request is not valid.");
  const typed = String(form.get("response") ?? "");
  const name = PasskeyNameSchema.safeParse(String(form.get("name") ?? ""));
  if (!name.success) return refuse(400, name.error.issues[0]?.message ?? "Use a shorter name");
  let response: unknown;
  try {
    response = typed.length <= MAX_RESPONSE_CHARS ? JSON.parse(typed) : null;
  } catch {
    response = null;
  }
  if (!response || typeof response !== "object")
    return refuse(400, "Your device's answer could not be read. Try again.");
  const saved = await registerPasskey(request, ownerOf(viewer), response, name.data);
  if ("message" in saved) return refuse(saved.status, saved.message);
  return Response.json({ ok: true });
}
