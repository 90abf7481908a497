import { Trash2, TriangleAlert, Wallet } from "lucide-react";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { requirePermission } from "~/.server/http/authz";
import { type BodyHandle, formText, readUploadForm } from "~/.server/http/form-data";
import { failure, failureFrom } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { appleWalletStatus, removeAppleWallet, saveAppleWallet } from "~/.server/wallet/apple";
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

/** Apple's form carries two certificate files: the server allows a body with files (server/routes.ts). */
export const handle: BodyHandle = { bodyLimit: "upload" };

export async function loader({ context }: Route.LoaderArgs) {
  requirePermission(context.get(viewerContext), "update:settings:any");
  const [google, apple] = await Promise.all([googleWalletStatus(), appleWalletStatus()]);
  return { google, apple };
}

/** A chosen file's bytes, or null when none was chosen. */
async function fileOf(form: FormData, name: string): Promise<Uint8Array | null> {
  const file = form.get(name);
  return file instanceof File && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const { form } = await readUploadForm(request);
  if (!form) {
    return failure(413, { formError: "Choose the certificate files themselves: each is only a few kilobytes." });
  }
  const values = formText(form);
  if (values.intent === "save-apple") {
    try {
      await saveAppleWallet(viewer, {
        passTypeId: values.passTypeId ?? "",
        teamId: values.teamId ?? "",
        p12: await fileOf(form, "p12"),
        password: values.password ?? "",
        wwdr: await fileOf(form, "wwdr"),
      });
      return redirectWithToast(PAGE, { text: "Apple Wallet is set up: members can add their cards to it." });
    } catch (error) {
      // The form shows the identifiers again, never the certificate or its password.
      return failureFrom(error, {
        values: { intent: "save-apple", passTypeId: values.passTypeId ?? "", teamId: values.teamId ?? "" },
      });
    }
  }
  if (values.intent === "remove-apple") {
    await removeAppleWallet(viewer);
    return redirectWithToast(PAGE, { text: "Apple Wallet is removed: its button is gone from members' pages." });
  }
  if (values.intent === "save-google") {
    try {
      await saveGoogleWallet(viewer, { issuerId: values.issuerId ?? "", serviceAccount: values.serviceAccount ?? "" });
      return redirectWithToast(PAGE, { text: "Google Wallet is set up: members can save their cards to it." });
    } catch (error) {
      // The form shows the issuer again, never the key.
      return failureFrom(error, { values: { intent: "save-google", issuerId: values.issuerId ?? "" } });
    }
  }
  if (values.intent === "remove-google") {
    await removeGoogleWallet(viewer);
    return redirectWithToast(PAGE, { text: "Google Wallet is removed: its button is gone from members' pages." });
  }
  return failure(400, { formError: "Unknown action." });
}

export default function WalletSettings({ loaderData, actionData: answer }: Route.ComponentProps) {
  const { google, apple } = loaderData;
  // Each form shows its own failure.
  const appleFailure = answer?.values?.intent === "save-apple" ? answer : undefined;
  const actionData = appleFailure ? undefined : answer;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save-google";
  const [removing, setRemoving] = useState(false);
  const remover = useDialogFetcher(() => setRemoving(false));
  const configured = google.clientEmail !== null;
  return (
    <div className="max-w-3xl">
      <BackLink to="/admin/settings/security">Settings</BackLink>
      <PageHeader
        title="Wallet passes"
        description="Let members keep their card in their phone's wallet, with its QR code, to show it without a network."
      />
      <AppleWalletSection status={apple} failure={appleFailure} />
      <section
        aria-labelledby="google-title"
        className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="google-title" className="flex items-center gap-2 text-lg font-semibold">
            <Wallet aria-hidden className="size-5" />
            Google Wallet
          </h2>
          <SetUpBadge configured={configured} />
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

const EXPIRES = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

/** Apple Wallet: the pass type, the team, the signing certificate (.p12) and Apple's WWDR certificate. */
function AppleWalletSection({
  status,
  failure,
}: {
  status: Route.ComponentProps["loaderData"]["apple"];
  failure: Route.ComponentProps["actionData"];
}) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save-apple";
  const [removing, setRemoving] = useState(false);
  const remover = useDialogFetcher(() => setRemoving(false));
  const configured = status.signerName !== null;
  return (
    <section
      aria-labelledby="apple-title"
      className="mb-6 space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="apple-title" className="flex items-center gap-2 text-lg font-semibold">
          <Wallet aria-hidden className="size-5" />
          Apple Wallet
        </h2>
        <SetUpBadge configured={configured} />
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        In your Apple Developer account, make a <strong>Pass Type ID</strong> and its certificate, open the certificate
        in Keychain Access and export it with its private key as a <strong>.p12</strong> file. Download Apple's{" "}
        <strong>WWDR</strong> intermediate certificate (G4) too. Namecard signs each member's pass on this server.
      </p>
      {configured ? (
        <p className="text-sm">
          Signing with <strong className="break-all">{status.signerName}</strong>
          {status.signerExpiresAt ? `, valid until ${EXPIRES.format(new Date(status.signerExpiresAt))}` : ""}. The
          certificate's key is stored encrypted and is never shown again.
        </p>
      ) : null}
      {status.unreadable ? (
        <p className="flex items-start gap-1.5 text-sm text-amber-800 dark:text-amber-300">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          The stored certificate cannot be read with this server's secret (a backup restored elsewhere?): choose the
          .p12 file again.
        </p>
      ) : null}
      <Form
        key={`${status.signerName} ${status.signerExpiresAt}`}
        method="post"
        encType="multipart/form-data"
        noValidate
        className="space-y-5"
      >
        <input type="hidden" name="intent" value="save-apple" />
        <FormAlert failure={failure} nothingDone="Nothing was saved." />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Pass type identifier"
            name="passTypeId"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="pass.com.example.card"
            defaultValue={failure?.values?.passTypeId ?? status.passTypeId ?? ""}
            errors={failure?.fieldErrors?.passTypeId}
          />
          <Field
            label="Team identifier"
            name="teamId"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="ABCDE12345"
            defaultValue={failure?.values?.teamId ?? status.teamId ?? ""}
            errors={failure?.fieldErrors?.teamId}
          />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label={configured ? "Replace the certificate (.p12)" : "Pass type certificate (.p12)"}
            name="p12"
            type="file"
            accept=".p12,.pfx,application/x-pkcs12"
            required={!configured}
            hint={configured ? "Leave empty to keep the stored certificate." : "Exported with its private key."}
            errors={failure?.fieldErrors?.p12}
          />
          <Field
            label="The .p12 file's password"
            name="password"
            type="password"
            autoComplete="off"
            hint="Used once to open the file; never stored."
            errors={failure?.fieldErrors?.password}
          />
        </div>
        <Field
          label={status.passTypeId ? "Replace Apple's WWDR certificate" : "Apple's WWDR certificate (.cer)"}
          name="wwdr"
          type="file"
          accept=".cer,.crt,.pem,application/x-x509-ca-cert"
          required={!status.passTypeId}
          hint={status.passTypeId ? "Leave empty to keep the stored one." : undefined}
          errors={failure?.fieldErrors?.wwdr}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Save Apple Wallet"}
          </Button>
          {configured ? (
            <Button type="button" variant="destructive-outline" onClick={() => setRemoving(true)}>
              <Trash2 aria-hidden className="size-4" />
              Remove
            </Button>
          ) : null}
        </div>
      </Form>
      <Confirm
        open={removing}
        onOpenChange={setRemoving}
        title="Remove Apple Wallet?"
        confirmLabel="Remove Apple Wallet"
        busy={remover.busy}
        onConfirm={() => remover.submit({ intent: "remove-apple" }, { method: "post" })}
      >
        <p>The "Add to Apple Wallet" button leaves members' pages. Passes already added stay in their wallets.</p>
      </Confirm>
    </section>
  );
}

function SetUpBadge({ configured }: { configured: boolean }) {
  return configured ? (
    <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
      Set up
    </span>
  ) : (
    <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
      Not set up
    </span>
  );
}
