import { useState } from "react";
import { ErrorList, fieldId } from "./forms";

/** A colour typed as hex or picked, the two kept together; empty shows the default in grey. */
export function ColorField({
  name,
  label,
  stored,
  fallback,
  errors,
  onChange,
}: {
  name: string;
  label: string;
  stored: string;
  fallback: string;
  errors?: string[];
  /** Told of every change, typed or picked (a preview beside the field). */
  onChange?: (value: string) => void;
}) {
  const [value, setStored] = useState(stored);
  const setValue = (next: string) => {
    setStored(next);
    onChange?.(next);
  };
  const errorId = errors?.length ? `${fieldId(name)}-error` : undefined;
  return (
    <div>
      <label htmlFor={fieldId(name)} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label} picker`}
          value={value || fallback}
          onChange={(event) => setValue(event.target.value)}
          className="h-10 w-12 cursor-pointer rounded-lg border border-slate-300 bg-white p-1 dark:border-slate-700 dark:bg-slate-950"
        />
        <input
          id={fieldId(name)}
          name={name}
          value={value}
          placeholder={fallback}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errorId}
          className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 font-mono text-sm dark:border-slate-700 dark:bg-slate-950"
        />
      </div>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}
