import { KeyRound } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { AcceptInvitationSchema } from "~/.server/accounts/schemas";
import { callAuth, cookieHeaders } from "~/.server/http/auth";
import { formTargetsContext } from "~/.server/http/csp";
import { readForm } from "~/.server/http/form-data";
import { failure } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { type ClaimPreview, viewInvitation } from "~/.server/invitations/accept";
import { isAdminEmail } from "~/.server/platform/admins";
import { fieldErrors } from "~/.server/platform/validation";
import { providerForEmail, requiresProvider } from "~/.server/sso/providers";
import { NewPasswordField } from "~/components/account-fields";
import { AuthShell, LinkFailedScreen } from "~/components/auth-shell";
import { Avatar } from "~/components/avatar";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { fullName } from "~/lib/names";
import { useSite } from "~/lib/site";
import type { Route } from "./+types/invitation";

export const meta: Route.MetaFunction = () => [{ title: "Claim your card" }];

/**
 * Where an invitation's link lands (docs/decisions/021-invitations-and-the-mail-queue.md).
 * Opening it uses nothing up: the button does. Whoever opens it proves the
 * mailbox, so they choose the password; an address that has an account keeps
 * its password and gets the card added.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const view = token ? await viewInvitation(token) : ({ state: "invalid" } as const);
  // An address of a provider's domain claims its card by signing in there (the first sign-in claims it).
  // The addresses in ADMIN_EMAILS keep their password, and never sign in through a provider.
  const provider =
    view.state === "choose-password" && !isAdminEmail(view.email) ? await providerForEmail(view.email) : null;
  if (provider) context.set(formTargetsContext, [provider.authorizationOrigin]);
  return {
    token: view.state === "invalid" ? "" : token,
    view,
    sso: provider
      ? { id: provider.id, name: provider.name, required: "email" in view && requiresProvider(provider, view.email) }
      : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const form = Object.fromEntries(await readForm(request));
  const parsed = AcceptInvitationSchema.safeParse(form);
  if (!parsed.success) return failure(400, { fieldErrors: fieldErrors(parsed.error) });
  if ("password" in form && !parsed.data.password) {
    return failure(400, { fieldErrors: { password: ["Choose a password"] } });
  }
  const result = await callAuth<{ outcome: "claimed" | "linked" | "has-card"; username: string | null }>(
    request,
    "/accept-invitation",
    parsed.data,
  );
  if (!result.ok) {
    const status = result.status === 429 ? 429 : 400;
    if (result.fieldErrors) return failure(status, { fieldErrors: result.fieldErrors });
    return failure(status, { formError: result.message });
  }
  const card = result.data.username ? `/profile/${encodeURIComponent(result.data.username)}` : "/";
  switch (result.data.outcome) {
    case "claimed":
      return redirectWithToast(
        card,
        { text: "Welcome! This card is yours now." },
        { headers: cookieHeaders(result.headers) },
      );
    case "linked":
      return redirectWithToast(`/auth?${new URLSearchParams({ redirectTo: card })}`, {
        text: "The card is now part of your account. Sign in with your password to see it.",
      });
    default:
      return redirectWithToast("/auth", {
        text: "Your account already has a card, so this one was not added. Ask your administrator to merge them.",
        tone: "error",
      });
  }
}

/** The card the invitation gives, as a colleague's tile shows it: in its brand's colours, with its name and title. */
function CardPreview({ card, company }: { card: ClaimPreview; company: string }) {
  return (
    <figure
      aria-label="Your card"
      className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="brand-gradient h-12" />
      <figcaption className="flex items-center gap-3 px-4 pb-4">
        <Avatar person={card} photoUrl={card.photoUrl} className="-mt-6 ring-4 ring-white dark:ring-slate-900" />
        <span className="min-w-0 pt-2">
          <span className="block truncate font-semibold text-slate-900 dark:text-white">{fullName(card)}</span>
          {card.title ? (
            <span className="block truncate text-sm text-slate-600 dark:text-slate-300">{card.title}</span>
          ) : null}
          <span className="block truncate text-sm font-medium text-brand-ink">{card.brand?.name ?? company}</span>
        </span>
      </figcaption>
    </figure>
  );
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const site = useSite();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { view, token, sso } = loaderData;
  if (view.state === "invalid") {
    return (
      <LinkFailedScreen
        problem="The invitation link is invalid, was already used, has expired, or was replaced by a newer one. Only the newest link we sent works, for 14 days."
        advice="Ask your administrator to invite you again, or sign in if you have already claimed your card."
      />
    );
  }
  const errors = actionData?.fieldErrors;
  const { card } = view;
  return (
    <AuthShell brand={card.brand}>
      <div className="mb-6 space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">
          Claim your {card.brand?.name ?? site.companyName} card
        </h1>
        <CardPreview card={card} company={site.companyName} />
        {view.state === "choose-password" ? (
          <p className="text-slate-600 dark:text-slate-400">
            A business card was prepared for{" "}
            <strong className="break-all text-slate-900 dark:text-slate-100">{view.email}</strong>.
            {sso ? null : " Choose your password: it signs you in from now on, and the card becomes yours."}
          </p>
        ) : (
          <p className="text-slate-600 dark:text-slate-400">
            <strong className="break-all text-slate-900 dark:text-slate-100">{view.email}</strong> already has an
            account. Add the card to it; your password stays as it is.
          </p>
        )}
      </div>
      {sso ? (
        <Form method="post" action="/auth" className="mb-6 space-y-3">
          <input type="hidden" name="intent" value="sso" />
          <input type="hidden" name="providerId" value={sso.id} />
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Your company signs you in with {sso.name}: sign in there, and the card becomes yours.
          </p>
          <Button type="submit" size="lg" className="w-full">
            <KeyRound aria-hidden className="size-4" />
            Sign in with {sso.name}
          </Button>
        </Form>
      ) : null}
      {sso?.required ? null : (
        <Form method="post" className="space-y-4" noValidate>
          <input type="hidden" name="token" value={token} />
          {actionData?.formError ? <Alert tone="error">{actionData.formError}</Alert> : null}
          {view.state === "choose-password" ? (
            <>
              <input type="hidden" name="username" autoComplete="username" value={view.email} />
              <NewPasswordField errors={errors} />
            </>
          ) : null}
          <Button type="submit" size="lg" variant={sso ? "secondary" : "primary"} className="w-full" disabled={busy}>
            {busy
              ? "Claiming..."
              : view.state === "choose-password"
                ? sso
                  ? "Claim it with a password instead"
                  : "Claim my card and sign in"
                : "Add the card to my account"}
          </Button>
        </Form>
      )}
    </AuthShell>
  );
}
