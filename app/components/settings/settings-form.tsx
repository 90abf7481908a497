import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import type { ActionFailure } from "~/lib/action-result";
import { FormAlert } from "../form-alert";
import { Button } from "../ui/button";

export const SETTINGS_PANEL =
  "space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900";

/**
 * One settings tab's form: the summary of a failed save, the tab's fields and
 * its Save, which sends this tab alone. Another form on the tab (an erasure, a
 * deactivation) sends an `intent` and leaves the Save as it is.
 */
export function SettingsForm({ failure, children }: { failure: ActionFailure | undefined; children: ReactNode }) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && !navigation.formData?.has("intent");
  return (
    <Form method="post" encType="multipart/form-data" noValidate>
      <div className="mb-6 empty:hidden">
        <FormAlert failure={failure} nothingDone="Nothing was saved." />
      </div>
      <div className={SETTINGS_PANEL}>{children}</div>
      {/* Where the form ends, on a phone too. */}
      <div className="mt-6 flex justify-end">
        <Button type="submit" disabled={saving} className="w-full sm:w-auto">
          {saving ? "Saving..." : "Save Settings"}
        </Button>
      </div>
    </Form>
  );
}
