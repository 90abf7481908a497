import { useState } from "react";
import { Form, useNavigation, useSubmit } from "react-router";
import type { FieldErrors } from "~/lib/action-result";
import { LEAD_RETENTION_MAX_MONTHS } from "~/lib/leads";
import { ChoiceField, ErrorList, Field, fieldId, TextareaField } from "../forms";
import { Button } from "../ui/button";
import { Confirm } from "../ui/dialog";

export type LegalValues = {
  showStatsToVisitors: string;
  leadRetentionMonths: string;
  adminsSeeLeads: string;
  termsOfService: string;
  privacyPolicy: string;
  /** What was typed to erase, shown again after a refusal. */
  eraseEmail?: string;
};

const ERASE_FORM = "erase-leads";

/** Who sees a card's numbers, how leads are kept and erased, and the published legal texts. */
export function LegalFields({ values, errors }: { values: LegalValues; errors?: FieldErrors }) {
  return (
    <>
      <VisitorStatsField defaultValue={values.showStatsToVisitors} errors={errors?.showStatsToVisitors} />
      <LeadsFieldset values={values} errors={errors} />
      <TextareaField
        label="Terms of service"
        name="termsOfService"
        rows={10}
        defaultValue={values.termsOfService}
        hint="Published at /terms and linked from sign-up and the footer. Leave empty to publish nothing."
        errors={errors?.termsOfService}
      />
      <TextareaField
        label="Privacy policy"
        name="privacyPolicy"
        rows={10}
        defaultValue={values.privacyPolicy}
        hint="Published at /privacy and linked from sign-up and the footer."
        errors={errors?.privacyPolicy}
      />
    </>
  );
}

/** Whether visitors who are not signed in see a card's numbers. */
function VisitorStatsField({ defaultValue, errors }: { defaultValue: string; errors?: string[] }) {
  return (
    <ChoiceField
      name="showStatsToVisitors"
      legend={'Who sees a card\'s view count and "Member Since"'}
      hint="On public cards and QR pages. The card's owner, signed-in members and administrators always see them."
      options={[
        { value: "shown", label: "Everyone who opens a card" },
        { value: "hidden", label: "Only people who are signed in" },
      ]}
      defaultValue={defaultValue}
      errors={errors}
      inline
    />
  );
}

/** How long leads are kept, whether administrators read them, and erasing one visitor's details. */
function LeadsFieldset({ values, errors }: { values: LegalValues; errors?: FieldErrors }) {
  return (
    <fieldset className="space-y-5" aria-describedby="leads-hint">
      <legend className="mb-1 text-base font-semibold">Leads</legend>
      <p id="leads-hint" className="text-sm text-slate-500 dark:text-slate-400">
        Visitors may share their details from a card with its owner. The privacy page tells them how long they are kept.
      </p>
      <Field
        label="Keep leads for (months)"
        name="leadRetentionMonths"
        inputMode="numeric"
        className="max-w-xs"
        defaultValue={values.leadRetentionMonths}
        hint={`Older leads are deleted automatically. 1 to ${LEAD_RETENTION_MAX_MONTHS}.`}
        errors={errors?.leadRetentionMonths}
      />
      <div id={fieldId("adminsSeeLeads")} tabIndex={-1} className="outline-none">
        <label className="flex items-start gap-2 text-sm font-medium">
          <input
            type="checkbox"
            name="adminsSeeLeads"
            value="on"
            defaultChecked={values.adminsSeeLeads === "on"}
            className="mt-0.5 size-4 accent-[var(--color-brand-solid)]"
          />
          Administrators may read every card's leads
        </label>
        <p className="mt-1 ml-6 text-xs text-slate-500 dark:text-slate-400">
          Off: administrators see only how many leads each card has.
        </p>
        <ErrorList errors={errors?.adminsSeeLeads} />
      </div>
      <EraseLeads defaultValue={values.eraseEmail} errors={errors?.eraseEmail} />
    </fieldset>
  );
}

/**
 * Erasing one visitor's details from every card. Its field and button belong
 * to the erasure's own form (`form=`), which stands outside the settings form
 * (forms cannot nest). With JavaScript the erasure is confirmed first; without
 * it the button sends the form at once.
 */
function EraseLeads({ defaultValue, errors }: { defaultValue?: string; errors?: string[] }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [confirming, setConfirming] = useState<string | null>(null);
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "erase-leads";
  const form = () => document.getElementById(ERASE_FORM) as HTMLFormElement | null;
  return (
    <div className="space-y-2 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <p className="text-sm font-medium">Erase a visitor's details</p>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Deletes every lead with this email address, on every card. The audit log records that an erasure was done, never
        the address.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <Field
          label="Visitor's email"
          name="eraseEmail"
          type="email"
          form={ERASE_FORM}
          autoComplete="off"
          className="flex-1"
          defaultValue={defaultValue}
          errors={errors}
        />
        <Button
          type="submit"
          form={ERASE_FORM}
          variant="destructive-outline"
          className="sm:mt-7.5"
          disabled={busy}
          onClick={(event) => {
            event.preventDefault();
            const typed = document.getElementById(fieldId("eraseEmail") ?? "");
            setConfirming(typed instanceof HTMLInputElement ? typed.value.trim() : "");
          }}
        >
          {busy ? "Erasing..." : "Erase"}
        </Button>
      </div>
      <Confirm
        open={confirming !== null}
        onOpenChange={(open) => setConfirming(open ? confirming : null)}
        title="Erase this visitor's details?"
        confirmLabel="Erase from every card"
        busy={busy}
        onConfirm={() => {
          setConfirming(null);
          const erasure = form();
          if (erasure) submit(erasure);
        }}
      >
        <p>
          Every lead with {confirming ? <strong className="break-all">{confirming}</strong> : "this address"} is deleted
          from every card. This cannot be undone.
        </p>
      </Confirm>
    </div>
  );
}

/** The erasure's form: a sibling of the settings form, since forms cannot nest. */
export function EraseLeadsForm() {
  return (
    <Form id={ERASE_FORM} method="post" encType="multipart/form-data" hidden>
      <input type="hidden" name="intent" value="erase-leads" />
    </Form>
  );
}
