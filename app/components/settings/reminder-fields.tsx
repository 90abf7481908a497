import type { FieldErrors } from "~/lib/action-result";
import { ErrorList, Field, fieldId } from "../forms";

export type ReminderValues = { autoReminders: string; reminderAfterDays: string; reminderMaxCount: string };

/** Automatic reminders to people invited who have not claimed their card. */
export function ReminderFields({ values, errors }: { values: ReminderValues; errors?: FieldErrors }) {
  return (
    <fieldset className="space-y-5" aria-describedby="reminders-hint">
      <legend className="mb-1 text-base font-semibold">Invitation reminders</legend>
      <p id="reminders-hint" className="text-sm text-slate-500 dark:text-slate-400">
        People invited to claim their card who have not done so get a fresh link again, after the number of days you
        choose since their last mail, up to the number of reminders you choose. Each reminder replaces the earlier link.
      </p>
      <div id={fieldId("autoReminders")} tabIndex={-1} className="outline-none">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            name="autoReminders"
            value="on"
            defaultChecked={values.autoReminders === "on"}
            className="size-4 accent-[var(--color-brand-solid)]"
          />
          Send reminders automatically
        </label>
        <ErrorList errors={errors?.autoReminders} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Remind after (days)"
          name="reminderAfterDays"
          inputMode="numeric"
          defaultValue={values.reminderAfterDays}
          hint="Days since the invitation or the last reminder, 1 to 365."
          errors={errors?.reminderAfterDays}
        />
        <Field
          label="Reminders at most"
          name="reminderMaxCount"
          inputMode="numeric"
          defaultValue={values.reminderMaxCount}
          hint="How many reminders one person gets, 1 to 10."
          errors={errors?.reminderMaxCount}
        />
      </div>
    </fieldset>
  );
}
