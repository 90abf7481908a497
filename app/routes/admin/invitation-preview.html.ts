import { requireAction, requireAdministration } from "~/.server/http/authz";
import { notFound, parseQuery } from "~/.server/http/responses";
import { previewInvitation } from "~/.server/invitations/admin-actions";
import { NotFoundError } from "~/.server/platform/errors";
import { escapeHtml } from "~/.server/platform/mail";
import { BrandChoiceSchema, parseForm } from "~/.server/platform/validation";
import type { Route } from "./+types/invitation-preview.html";

/**
 * The invitation mail as a card of `?brand=` receives it (no brand: the company's), as a small
 * HTML document shown in a frame beside "Invite all". Its subject heads it, as a mail program
 * shows one; its policy lets the mail's inline styles and its logo load, and nothing else.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const actor = requireAction(await requireAdministration(request), "invite:profile");
  const brandId = parseQuery(() => parseForm(BrandChoiceSchema, new URL(request.url).searchParams.get("brand") ?? ""));
  const preview = await previewInvitation({ actor, brandId }).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound("No such brand.");
    throw error;
  });
  const subject = `<div style="font:14px/1.4 system-ui,sans-serif;color:#111827;background:#f1f5f9;border-bottom:1px solid #cbd5e1;margin:-24px -16px 16px;padding:8px 16px"><span style="color:#334155">Subject:</span> <strong>${escapeHtml(preview.subject)}</strong></div>`;
  const body = preview.html
    .replace("<head>", "<head><title>Invitation preview</title>")
    .replace(/<body([^>]*)>/, (_, attributes: string) => `<body${attributes}>${subject}`)
    .replace("<html>", '<html lang="en">');
  return new Response(body, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "private, no-store",
      "Content-Security-Policy":
        "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'",
    },
  });
}
