import { Lock } from "lucide-react";
import { fieldId } from "~/components/forms";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { DIALOG_FORM_ACTIONS, Modal } from "~/components/ui/dialog";
import { useDialogFetcher } from "~/components/use-dialog-fetcher";
import {
  type BrandFieldRule,
  type BrandTemplate,
  CARD_FIELD_KEYS,
  CARD_FIELDS,
  type FieldPolicies,
  templateFieldNames,
  VISIBILITY_HINTS,
  VISIBILITY_LABELS,
} from "~/lib/card-fields";

const CONTROL =
  "h-9 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-950";

/** A field's value in the template as the form shows it: links one address a line. */
function valueText(rule: BrandFieldRule | undefined): string {
  const given = rule?.value ?? null;
  if (Array.isArray(given)) return given.map((link) => link.url).join("\n");
  return given ?? "";
}

/**
 * A brand's card template: per field, who sees it on the brand's new cards,
 * whether the brand's people may change it, and a value every card of the
 * brand shows. A field the whole site locked is shown as the site decided.
 */
export function BrandTemplateDialog({
  brand,
  site,
  onClose,
}: {
  brand: { id: number; name: string; version: string; template: BrandTemplate; profileCount: number };
  site: FieldPolicies;
  onClose: () => void;
}) {
  const { fetcher, busy, failure, onSubmit } = useDialogFetcher(onClose);
  const sent = failure?.values;
  const errors = failure?.fieldErrors;
  return (
    <Modal open onOpenChange={(open) => !open && !busy && onClose()} title={`Card template of ${brand.name}`} wide>
      <fetcher.Form method="post" noValidate className="space-y-5" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="template" />
        <input type="hidden" name="id" value={brand.id} />
        <input type="hidden" name="version" value={brand.version} />
        {failure?.formError ? <Alert tone="error">{failure.formError}</Alert> : null}
        <p className="text-sm text-slate-600 dark:text-slate-400">
          What every card of {brand.name} starts with. A locked field is the brand's: its people cannot change it. A
          value filled in here is shown on every card of the brand, its contact file, wallet passes and e-mail
          signature. Saving applies it to{" "}
          {brand.profileCount === 1 ? "the brand's card" : `all ${brand.profileCount.toLocaleString("en")} cards`} at
          once.
        </p>
        <fieldset disabled={busy}>
          <legend className="sr-only">Fields</legend>
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
            {CARD_FIELD_KEYS.map((key) => {
              const field = CARD_FIELDS[key];
              const name = templateFieldNames(key);
              const rule = brand.template[key];
              const policy = site[key];
              if (policy.locked) {
                return (
                  <li key={key} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
                    <span className="font-medium">{field.label}</span>
                    <span className="inline-flex items-center gap-1.5 text-slate-500 dark:text-slate-400">
                      <Lock aria-hidden className="size-3.5" />
                      {VISIBILITY_LABELS[policy.visibility]} · locked for every brand in Settings
                    </span>
                  </li>
                );
              }
              const visibility = sent ? (sent[name.visibility] ?? "") : (rule?.visibility ?? "");
              const locked = sent ? sent[name.locked] === "on" : (rule?.locked ?? false);
              const value = sent ? (sent[name.value] ?? "") : valueText(rule);
              const visibilityError = errors?.[name.visibility]?.[0];
              const valueError = errors?.[name.value]?.[0];
              return (
                <li key={key} className="grid gap-2 px-4 py-3 sm:grid-cols-[8rem_minmax(0,1fr)_6rem] sm:items-start">
                  <span className="pt-2 text-sm font-medium">{field.label}</span>
                  <div className="space-y-2">
                    <select
                      id={fieldId(name.visibility)}
                      name={name.visibility}
                      aria-label={`${field.label}: who sees it on new cards`}
                      defaultValue={visibility}
                      aria-invalid={visibilityError ? true : undefined}
                      className={CONTROL}
                    >
                      <option value="">Site default ({VISIBILITY_LABELS[policy.visibility]})</option>
                      {field.choices.map((choice) => (
                        <option key={choice} value={choice}>
                          {VISIBILITY_LABELS[choice]} — {VISIBILITY_HINTS[choice]}
                        </option>
                      ))}
                    </select>
                    {visibilityError ? (
                      <p className="text-sm text-red-600 dark:text-red-400">{visibilityError}</p>
                    ) : null}
                    {field.brandValue ? (
                      <>
                        {field.kind === "links" ? (
                          <textarea
                            id={fieldId(name.value)}
                            name={name.value}
                            rows={2}
                            defaultValue={value}
                            aria-label={`${field.label} on every card of ${brand.name}`}
                            aria-invalid={valueError ? true : undefined}
                            placeholder="https://www.example.com, one a line"
                            className={`${CONTROL} h-auto py-2`}
                          />
                        ) : (
                          <input
                            id={fieldId(name.value)}
                            name={name.value}
                            defaultValue={value}
                            type={field.kind === "phone" ? "tel" : "text"}
                            aria-label={`${field.label} on every card of ${brand.name}`}
                            aria-invalid={valueError ? true : undefined}
                            placeholder={`${field.label} on every card (optional)`}
                            className={CONTROL}
                          />
                        )}
                        {valueError ? <p className="text-sm text-red-600 dark:text-red-400">{valueError}</p> : null}
                      </>
                    ) : null}
                  </div>
                  <label className="inline-flex items-center gap-2 pt-2 text-sm">
                    <input
                      type="checkbox"
                      name={name.locked}
                      defaultChecked={locked}
                      aria-label={`Lock ${field.label} for ${brand.name}`}
                      className="size-4 rounded border-slate-300"
                    />
                    Locked
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
        <div className={DIALOG_FORM_ACTIONS}>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? "Saving..." : "Save template"}
          </Button>
        </div>
      </fetcher.Form>
    </Modal>
  );
}
