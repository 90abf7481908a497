import { useState } from "react";
import type { FieldErrors } from "~/lib/action-result";
import { ErrorList, fieldId, TextareaField } from "../forms";
import { Alert } from "../ui/alert";

const JOIN_OPTIONS = [
  { value: "domains", label: "People with an address at these domains" },
  { value: "invited", label: "Only people an administrator added, imported or invited" },
  { value: "anyone", label: "Anyone who has the link" },
] as const;

export type JoinValues = { joinRule: string; joinDomains: string };

/** Who may make an account (docs/decisions/024-who-can-join.md); opening it to anyone is warned about. */
export function JoinRuleFields({ values, errors }: { values: JoinValues; errors?: FieldErrors }) {
  const [rule, setRule] = useState(values.joinRule || "domains");
  return (
    <fieldset
      id={fieldId("joinRule")}
      tabIndex={-1}
      aria-describedby="join-rule-hint"
      className="space-y-4 outline-none"
    >
      <legend className="mb-1 text-base font-semibold">Who can join</legend>
      <p id="join-rule-hint" className="text-sm text-slate-500 dark:text-slate-400">
        Everyone who joins gets a card and can read the whole directory, with colleagues' email addresses and phone
        numbers. People an administrator added, imported or invited can always join, and so can the administrators.
      </p>
      <div className="flex flex-col gap-3">
        {JOIN_OPTIONS.map((option) => (
          <div key={option.value} className="space-y-3">
            <label className="flex items-center gap-2 text-sm font-medium">
              <input
                type="radio"
                name="joinRule"
                value={option.value}
                defaultChecked={(values.joinRule || "domains") === option.value}
                onChange={() => setRule(option.value)}
                className="size-4 accent-[var(--color-brand-solid)]"
              />
              {option.label}
            </label>
            {option.value === "domains" ? (
              <div className="ml-6">
                <TextareaField
                  label="Domains"
                  name="joinDomains"
                  rows={3}
                  defaultValue={values.joinDomains}
                  placeholder="example.com"
                  hint="One a line, such as example.com. Addresses at their subdomains count too."
                  errors={errors?.joinDomains}
                />
              </div>
            ) : null}
          </div>
        ))}
      </div>
      {rule === "anyone" ? (
        <Alert tone="warning">
          Anyone on the internet who finds the sign-up page could make an account and read every colleague's email
          address and phone number. Choose this only for a directory that is meant to be public.
        </Alert>
      ) : null}
      <ErrorList errors={errors?.joinRule} />
    </fieldset>
  );
}
