import { RefreshCw, UserCog } from "lucide-react";
import { Form, Outlet, useMatches } from "react-router";
import { AppShell, type ShellViewer } from "~/components/app-shell";
import { Button } from "~/components/ui/button";
import { mediaUrl } from "~/lib/media";
import { concernsPage, useLiveData } from "~/lib/realtime";
import { requireViewerMiddleware, viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/layout";

export const middleware: Route.MiddlewareFunction[] = [requireViewerMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  return {
    viewer: {
      isAdmin: viewer.isAdmin,
      brandAdministrator: !viewer.isAdmin && viewer.brandIds.length > 0,
      email: viewer.user.email,
      profile: viewer.profile
        ? {
            firstName: viewer.profile.firstName,
            lastName: viewer.profile.lastName,
            username: viewer.profile.username,
            photoUrl: mediaUrl(viewer.profile.profilePhoto),
          }
        : null,
    } satisfies ShellViewer,
  };
}

export default function SignedInLayout({ loaderData }: Route.ComponentProps) {
  const { viewer } = loaderData;
  // Others' changes refresh the page on screen when they concern what it shows.
  const matches = useMatches();
  const page = matches[matches.length - 1];
  useLiveData((event) => concernsPage(event, page?.handle, page?.loaderData));
  // A member without a profile waits here; the admin is let through.
  if (!viewer.profile && !viewer.isAdmin) return <ProfileSetup email={viewer.email} />;
  return (
    <AppShell viewer={viewer}>
      <Outlet />
    </AppShell>
  );
}

function ProfileSetup({ email }: { email: string }) {
  return (
    <main className="flex min-h-dvh items-center justify-center p-6">
      <div className="w-full max-w-md space-y-6 rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand/10 text-brand-ink">
          <UserCog aria-hidden className="size-7" />
        </span>
        <div className="space-y-3">
          <h1 className="text-2xl font-semibold tracking-tight">Profile Setup in Progress</h1>
          <p className="text-slate-600 dark:text-slate-400">
            We're setting up your profile. This usually happens automatically when you sign up.
          </p>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            If this persists, your profile may need to be created by an administrator.
          </p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Button onClick={() => window.location.reload()}>
            <RefreshCw aria-hidden className="size-4" />
            Refresh Page
          </Button>
          <Form method="post" action="/auth/sign-out">
            <Button type="submit" variant="secondary" className="w-full">
              Sign In Again
            </Button>
          </Form>
        </div>
        <dl className="rounded-lg bg-slate-50 p-4 text-left font-mono text-xs text-slate-600 dark:bg-slate-950 dark:text-slate-400">
          <div className="flex gap-2">
            <dt className="font-semibold">Email:</dt>
            <dd className="break-all">{email}</dd>
          </div>
          <div className="flex gap-2">
            <dt className="font-semibold">Profile found:</dt>
            <dd>No</dd>
          </div>
        </dl>
      </div>
    </main>
  );
}
