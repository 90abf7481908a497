import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from "react";
import { cn } from "~/lib/cn";

const CONTROL =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 " +
  "focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none disabled:opacity-60 " +
  "aria-[invalid=true]:border-red-500 aria-[invalid=true]:ring-red-500/20 " +
  "dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500";

/**
 * The id of the control named `name`: the error summary above a form links to
 * it (`#field-name`), with or without JavaScript.
 */
export function fieldId(name: string | undefined): string | undefined {
  return name ? `field-${name}` : undefined;
}

/** A field's message: one at a time, the first rule it fails, so a person fixes one thing and then the next. */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
      {errors[0]}
    </p>
  );
}

type FieldProps = {
  label: string;
  hint?: string;
  errors?: string[] | null;
  className?: string;
  /** A control beside the label (a field's visibility), outside the label itself. */
  aside?: React.ReactNode;
};

type ControlProps = { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

/**
 * The frame every field shares: a label (with a mark when required), the
 * control, a hint and the errors, linked to the control with aria-describedby.
 */
function FieldFrame({
  label,
  hint,
  errors,
  className,
  aside,
  id: givenId,
  required,
  children,
}: FieldProps & { id?: string; required?: boolean; children: (control: ControlProps) => React.ReactNode }) {
  const fallbackId = useId();
  const id = givenId ?? fallbackId;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <div className="mb-1.5 flex min-h-6 items-end gap-1 text-sm font-medium text-slate-700 dark:text-slate-300">
        <label htmlFor={id}>{label}</label>
        {required ? (
          <span aria-hidden className="text-red-600 dark:text-red-400">
            *
          </span>
        ) : null}
        {aside ? <span className="ms-auto">{aside}</span> : null}
      </div>
      {children({
        id,
        "aria-invalid": errorId ? true : undefined,
        "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
      })}
      {hint ? (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** A labelled input whose hint and errors are linked with aria-describedby. */
export function Field({
  label,
  hint,
  errors,
  className,
  aside,
  ...input
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame
      label={label}
      hint={hint}
      errors={errors}
      className={className}
      aside={aside}
      id={input.id ?? fieldId(input.name)}
      required={input.required}
    >
      {(control) => <input {...control} className={CONTROL} {...input} id={control.id} />}
    </FieldFrame>
  );
}

export function TextareaField({
  label,
  hint,
  errors,
  className,
  aside,
  ...textarea
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame
      label={label}
      hint={hint}
      errors={errors}
      className={className}
      aside={aside}
      id={textarea.id ?? fieldId(textarea.name)}
      required={textarea.required}
    >
      {(control) => <textarea {...control} className={cn(CONTROL, "resize-y")} {...textarea} id={control.id} />}
    </FieldFrame>
  );
}

/** A native select: accessible everywhere and works before JavaScript arrives. */
export function SelectField({
  label,
  hint,
  errors,
  className,
  options,
  ...select
}: FieldProps &
  SelectHTMLAttributes<HTMLSelectElement> & {
    /** `lang`: the language an option is written in, when not the page's (a language by its own name). */
    options: { value: string; label: string; lang?: string }[];
  }) {
  return (
    <FieldFrame
      label={label}
      hint={hint}
      errors={errors}
      className={className}
      id={select.id ?? fieldId(select.name)}
      required={select.required}
    >
      {(control) => (
        <select {...control} className={cn(CONTROL, "pr-8")} {...select} id={control.id}>
          {options.map((option) => (
            <option key={option.value} value={option.value} lang={option.lang}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/**
 * Hidden from people, tempting to bots: a filled one rejects the form. Off the
 * page on the side a page never scrolls to (the left, right to left the right).
 */
export function Honeypot() {
  return (
    <div aria-hidden className="absolute -start-[9999px] h-px w-px overflow-hidden">
      <label>
        Leave this empty
        <input type="text" name="website_url" tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/**
 * A choice of one among a few, as radio buttons under a legend and a hint;
 * the group is the field that a message summary leads to.
 */
export function ChoiceField({
  name,
  legend,
  hint,
  options,
  defaultValue,
  errors,
  inline = false,
}: {
  name: string;
  legend: ReactNode;
  hint: ReactNode;
  options: readonly { value: string; label: string }[];
  defaultValue: string;
  errors?: string[];
  /** Side by side where there is room, rather than one under another. */
  inline?: boolean;
}) {
  const hintId = `${fieldId(name)}-hint`;
  return (
    <fieldset id={fieldId(name)} tabIndex={-1} aria-describedby={hintId} className="space-y-2 outline-none">
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">{legend}</legend>
      <p id={hintId} className="text-sm text-slate-500 dark:text-slate-400">
        {hint}
      </p>
      <div className={cn("flex flex-col gap-2", inline && "sm:flex-row sm:gap-6")}>
        {options.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value={option.value}
              defaultChecked={defaultValue === option.value}
              className="size-4 accent-[var(--color-brand-solid)]"
            />
            {option.label}
          </label>
        ))}
      </div>
      <ErrorList errors={errors} />
    </fieldset>
  );
}
