import { MailCheck } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { readForm } from "~/.server/http/form-data";
import { failure, failureFrom } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { ConflictError, NotFoundError } from "~/.server/platform/errors";
import { confirmCardEmail, pendingCardEmail } from "~/.server/profiles/card-email";
import { EMAIL_TAKEN } from "~/.server/profiles/schemas";
import { FormAlert } from "~/components/form-alert";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/card-email";

export const meta: Route.MetaFunction = () => [{ title: "Confirm your card's email" }];

/**
 * Where the link sent to a card's new address lands. Only the member who
 * asked, signed in, can put the address on their card, and only with a
 * press of the button (a mail scanner opening the link changes nothing).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, email: token ? await pendingCardEmail(viewer, token) : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  const token = (await readForm(request)).get("token");
  if (typeof token !== "string") return failure(400, { formError: LINK_GONE });
  try {
    const { email } = await confirmCardEmail(viewer, token);
    return redirectWithToast("/profile/edit", { text: `Your card now shows ${email}.` });
  } catch (error) {
    if (error instanceof NotFoundError) return failure(404, { formError: LINK_GONE });
    if (error instanceof ConflictError) return failure(409, { formError: EMAIL_TAKEN });
    return failureFrom(error, { unexpected: "Failed to update profile. Please try again." });
  }
}

const LINK_GONE = "This link is invalid, was already used, or was replaced by a newer one.";

export default function CardEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { email, token } = loaderData;
  return (
    <div className="max-w-xl">
      <PageHeader title="Confirm your card's email" />
      <div className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <FormAlert failure={actionData} nothingDone="Your card is unchanged." />
        {email ? (
          <Form method="post" className="space-y-5">
            <input type="hidden" name="token" value={token} />
            <p className="flex gap-3 text-slate-700 dark:text-slate-300">
              <MailCheck aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-ink" />
              <span>
                Show <strong className="break-all">{email}</strong> on your card? Everyone who opens your card or saves
                your contact will see it.
              </span>
            </p>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Link
                to="/profile/edit"
                className="px-4 py-2 text-center text-sm font-medium text-brand-ink hover:underline"
              >
                Cancel
              </Link>
              <Button type="submit" disabled={busy}>
                {busy ? "Saving..." : "Show it on my card"}
              </Button>
            </div>
          </Form>
        ) : (
          <p className="text-slate-700 dark:text-slate-300">
            {LINK_GONE} Open the newest link we sent, while signed in to the account that asked for it.
          </p>
        )}
      </div>
    </div>
  );
}
