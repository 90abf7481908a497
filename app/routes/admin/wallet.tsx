import { Trash2, TriangleAlert, Wallet } from "lucide-react";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { requirePermission } from "~/.server/authz";
import { formText, readForm } from "~/.server/form-data";
import { failure, failureFrom } from "~/.server/responses";
import { redirectWithToast } from "~/.server/toast";
import { googleWalletStatus, removeGoogleWallet, saveGoogleWallet } from "~/.server/wallet/google";
import { BackLink } from "~/components/back-link";
import { FormAlert } from "~/components/form-alert";
import { Field, TextareaField } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { Confirm } from "~/components/ui/dialog";
import { useDialogFetcher } from "~/components/use-dialog-fetcher";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/wallet";

export const meta: Route.MetaFunction = () => [{ title: "Wallet passes" }];

const PAGE = "/admin/settings/wallet";

export async function loader({ context }: Route.LoaderArgs) {
  requirePermission(context.get(viewerContext), "update:settings:any");
  return { google: await googleWalletStatus() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const values = formText(await readForm(request));
  if (values.intent === "save-google") {
    try {
      await saveGoogleWallet(viewer, { issuerId: values.issuerId ?? "", serviceAccount: values.serviceAccount ?? "" });
      return redirectWithToast(PAGE, { text: "Google Wallet is set up: members can save their cards to it." });
    } catch (error) {
      // The form shows the issuer again, never the key.
      return failureFrom(error, { values: { issuerId: values.issuerId ?? "" } });
    }
  }
  if (values.intent === "remove-google") {
    await removeGoogleWallet(viewer);
    return redirectWithToast(PAGE, { text: "Google Wallet is removed: its button is gone from members' pages." });
  }
  return failure(400, { formError: "Unknown action." });
}

export default function WalletSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { google } = loaderData;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save-google";
  const [removing, setRemoving] = useState(false);
  const remover = useDialogFetcher(() => setRemoving(false));
  const configured = google.clientEmail !== null;
  return (
    <div className="max-w-3xl">
      <BackLink to="/admin/settings?tab=security">Settings</BackLink>
      <PageHeader
        title="Wallet passes"
        description="Let members keep their card in their phone's wallet, with its QR code, to show it without a network."
      />
      <section
        aria-labelledby="google-title"
        className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="google-title" className="flex items-center gap-2 text-lg font-semibold">
            <Wallet aria-hidden className="size-5" />
            Google Wallet
          </h2>
          {configured ? (
            <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
              Set up
            </span>
          ) : (
            <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              Not set up
            </span>
          )}
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          In the Google Pay &amp; Wallet Console, note your <strong>issuer ID</strong>. In Google Cloud, make a service
          account, add it as a user of that issuer, and download a <strong>JSON key</strong> for it. Namecard signs each
          member's pass with that key: no call to Google is made from this server.
        </p>
        {configured ? (
          <p className="text-sm">
            Signing as <strong className="break-all">{google.clientEmail}</strong>. The key is stored encrypted and is
            never shown again.
          </p>
        ) : null}
        {google.unreadable ? (
          <p className="flex items-start gap-1.5 text-sm text-amber-800 dark:text-amber-300">
            <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
            The stored key cannot be read with this server's secret (a backup restored elsewhere?): paste the JSON key
            again.
          </p>
        ) : null}
        {/* A new key after each save: the form starts empty again, its key field too. */}
        <Form key={google.savedAt ?? "new"} method="post" noValidate className="space-y-5">
          <input type="hidden" name="intent" value="save-google" />
          <FormAlert failure={actionData} nothingDone="Nothing was saved." />
          <Field
            label="Issuer ID"
            name="issuerId"
            required
            inputMode="numeric"
            autoComplete="off"
            defaultValue={actionData?.values?.issuerId ?? google.issuerId ?? ""}
            errors={actionData?.fieldErrors?.issuerId}
          />
          <TextareaField
            label={configured ? "Replace the service account's JSON key" : "Service account's JSON key"}
            name="serviceAccount"
            rows={6}
            required={!configured}
            spellCheck={false}
            autoComplete="off"
            placeholder={configured ? "Set · leave empty to keep it" : '{ "type": "service_account", … }'}
            hint="Paste the whole file. It is stored encrypted and never shown again."
            errors={actionData?.fieldErrors?.serviceAccount}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : "Save Google Wallet"}
            </Button>
            {configured ? (
              <Button type="button" variant="destructive-outline" onClick={() => setRemoving(true)}>
                <Trash2 aria-hidden className="size-4" />
                Remove
              </Button>
            ) : null}
          </div>
        </Form>
      </section>
      <Confirm
        open={removing}
        onOpenChange={setRemoving}
        title="Remove Google Wallet?"
        confirmLabel="Remove Google Wallet"
        busy={remover.busy}
        onConfirm={() => remover.submit({ intent: "remove-google" }, { method: "post" })}
      >
        <p>The "Save to Google Wallet" button leaves members' pages. Passes already saved stay in their wallets.</p>
      </Confirm>
    </div>
  );
}
