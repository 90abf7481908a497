import { Check, Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";

/** How long "Copied" shows after a copy. */
const COPIED_MS = 2000;

/**
 * A value to copy into another system (an address, a token): read-only,
 * selected whole on focus, with a Copy button once JavaScript runs. Without
 * it, or when the clipboard refuses, the value is selected for copying by hand.
 */
export function CopyField({ id, label, value, hint }: { id: string; label: string; value: string; hint?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [copied, setCopied] = useState(false);
  const [scripted, setScripted] = useState(false);
  useEffect(() => {
    setScripted(true);
    return () => clearTimeout(timer.current);
  }, []);
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          ref={input}
          id={id}
          readOnly
          value={value}
          aria-describedby={hintId}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-800 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-200"
        />
        {scripted ? (
          <Button
            type="button"
            variant="secondary"
            className="shrink-0"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(value);
                setCopied(true);
                clearTimeout(timer.current);
                timer.current = setTimeout(() => setCopied(false), COPIED_MS);
              } catch {
                input.current?.focus();
                input.current?.select();
              }
            }}
          >
            {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
            {copied ? "Copied" : "Copy"}
            <span className="sr-only"> {label}</span>
          </Button>
        ) : null}
      </div>
      <span aria-live="polite" className="sr-only">
        {copied ? `${label} copied` : ""}
      </span>
      {hint ? (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
