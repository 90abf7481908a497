import { Link, redirect } from "react-router";
import { safeRedirect } from "~/.server/platform/validation";
import { DEACTIVATED_SIGN_IN } from "~/.server/profiles/deactivation";
import { AuthShell, LinkFailedScreen } from "~/components/auth-shell";
import { Alert } from "~/components/ui/alert";
import type { Route } from "./+types/verified";

export const meta: Route.MetaFunction = () => [{ title: "Email confirmation" }];

/**
 * Where a confirmation link lands. On success better-auth has signed the user
 * in and claimed or created their card, so they go on to where they were going.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (!url.searchParams.has("error")) {
    throw redirect(safeRedirect(url.searchParams.get("redirectTo")));
  }
  const error = url.searchParams.get("error");
  return {
    notAllowed: error === "NOT_ALLOWED_TO_JOIN",
    deactivated: error === "CARD_DEACTIVATED" ? DEACTIVATED_SIGN_IN : null,
  };
}

export default function Verified({ loaderData }: Route.ComponentProps) {
  if (loaderData?.notAllowed) {
    return (
      <AuthShell>
        <div className="space-y-4">
          <h1 className="text-2xl font-semibold tracking-tight">This address cannot join</h1>
          <Alert tone="error">
            Since you signed up, the administrators changed who can join, and this address is no longer among them. No
            account was made.
          </Alert>
          <p className="text-slate-600 dark:text-slate-400">
            Sign up with your work address, or ask an administrator to invite you.
          </p>
          <Link to="/auth?mode=signup" className="inline-block font-medium text-brand-ink hover:underline">
            Go to sign up
          </Link>
        </div>
      </AuthShell>
    );
  }
  if (loaderData?.deactivated) {
    return (
      <AuthShell>
        <div className="space-y-4">
          <h1 className="text-2xl font-semibold tracking-tight">Your address is confirmed</h1>
          <Alert tone="error">{loaderData.deactivated}</Alert>
        </div>
      </AuthShell>
    );
  }
  return (
    <LinkFailedScreen
      problem="The confirmation link is invalid, was already used, or has expired."
      advice="Sign in with your email and password: if your address is not confirmed yet, we'll send you a fresh link."
    />
  );
}
