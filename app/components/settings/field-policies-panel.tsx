import type { FieldErrors } from "~/lib/action-result";
import {
  CARD_FIELD_KEYS,
  CARD_FIELDS,
  type FieldPolicies,
  VISIBILITY_HINTS,
  VISIBILITY_LABELS,
} from "~/lib/card-fields";
import { ErrorList, fieldId } from "../forms";

/**
 * Who sees each card field unless its owner chooses otherwise, and whether
 * owners may choose at all: a locked field's value and visibility come from
 * administrators, the import and provisioning only. After a failed save each
 * row shows what was sent.
 */
export function FieldPoliciesPanel({
  policies,
  values,
  errors,
}: {
  policies: FieldPolicies;
  values: Record<string, string | undefined>;
  errors?: FieldErrors;
}) {
  return (
    <fieldset>
      <legend className="text-base font-semibold">Who sees each field</legend>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        A new card starts with these, and each person can change theirs on their profile. Lock a field to apply its
        setting to every card: people then cannot change its value or who sees it. Name, photo and brand are always
        shown.
      </p>
      <ul className="mt-4 divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {CARD_FIELD_KEYS.map((key) => {
          const name = `fieldPolicy.${key}.visibility`;
          const lockName = `fieldPolicy.${key}.locked`;
          const { label, choices } = CARD_FIELDS[key];
          const sent = values[name];
          const visibility = sent ?? policies[key].visibility;
          const locked = sent === undefined ? policies[key].locked : values[lockName] === "on";
          const errorId = errors?.[name]?.length ? `${fieldId(name)}-error` : undefined;
          return (
            <li key={key} className="grid items-center gap-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_17rem_6rem]">
              <span className="text-sm font-medium" id={`${fieldId(name)}-label`}>
                {label}
              </span>
              <div>
                <select
                  id={fieldId(name)}
                  name={name}
                  aria-label={`${label} visibility`}
                  defaultValue={visibility}
                  aria-invalid={errorId ? true : undefined}
                  aria-describedby={errorId}
                  className="h-9 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-950"
                >
                  {choices.map((choice) => (
                    <option key={choice} value={choice}>
                      {VISIBILITY_LABELS[choice]} — {VISIBILITY_HINTS[choice]}
                    </option>
                  ))}
                </select>
                <ErrorList id={errorId} errors={errors?.[name]} />
              </div>
              <label className="inline-flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name={lockName}
                  defaultChecked={locked}
                  aria-label={`Lock ${label}`}
                  className="size-4 rounded border-slate-300"
                />
                Locked
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
