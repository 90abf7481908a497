import { BellOff, MailX } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { readForm } from "~/.server/http/form-data";
import { type StopState, stopInvitations, stopState } from "~/.server/invitations/stop";
import { AuthShell, LinkFailedScreen } from "~/components/auth-shell";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/stop";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.state === "stopped" ? "Invitations stopped" : "Stop invitations" },
];

function linkOf(request: Request) {
  const query = new URL(request.url).searchParams;
  return { card: query.get("card") ?? "", key: query.get("key") ?? "" };
}

/**
 * The link at the foot of every invitation and reminder, and the address of
 * their `List-Unsubscribe` header. Opening it changes nothing (mail scanners
 * open links); the button, or a mail program's one-click POST, stops them.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { card, key } = linkOf(request);
  const state: StopState = await stopState(card, key);
  return data({ state, card, key }, { status: state === "invalid" ? 404 : 200 });
}

export async function action({ request }: Route.ActionArgs) {
  // A mail program sends `List-Unsubscribe=One-Click`; the page's button sends nothing. Either stops.
  await readForm(request);
  const { card, key } = linkOf(request);
  const state: StopState = await stopInvitations(card, key);
  return data({ state, card, key }, { status: state === "invalid" ? 404 : 200 });
}

export default function StopInvitations({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { state, card, key } = actionData ?? loaderData;
  if (state === "invalid") {
    return (
      <LinkFailedScreen
        problem="The link is incomplete, or it was not made for an invitation of ours."
        advice="Open the whole link from the mail, or ask the administrator who invited you to stop the invitations."
      />
    );
  }
  const stopped = state === "stopped";
  return (
    <AuthShell>
      <div className="space-y-4">
        <span className="flex size-12 items-center justify-center rounded-full bg-brand/10 text-brand-ink">
          {stopped ? <BellOff aria-hidden className="size-6" /> : <MailX aria-hidden className="size-6" />}
        </span>
        <h1 className="text-2xl font-semibold tracking-tight">
          {stopped ? "Invitations stopped" : "Stop invitations?"}
        </h1>
        {stopped ? (
          <p role="status" className="text-slate-600 dark:text-slate-400">
            No more invitations or reminders will be sent to this address. If you change your mind, sign up with this
            address: the card is still waiting for it.
          </p>
        ) : (
          <>
            <p className="text-slate-600 dark:text-slate-400">
              A business card was prepared for this address, and we sent an invitation to claim it. Stop them, and no
              more invitations or reminders will come.
            </p>
            <Form method="post" action={`?${new URLSearchParams({ card, key })}`}>
              <Button type="submit" size="lg" className="w-full" disabled={navigation.state === "submitting"}>
                {navigation.state === "submitting" ? "Stopping..." : "Stop invitations"}
              </Button>
            </Form>
          </>
        )}
      </div>
    </AuthShell>
  );
}
