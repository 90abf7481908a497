import { AlertCircle, CheckCircle2, Info, TriangleAlert, X } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

const TONES = {
  error: "border-red-200 bg-red-50 text-red-800 dark:border-red-900/60 dark:bg-red-950/50 dark:text-red-200",
  success:
    "border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900/60 dark:bg-emerald-950/50 dark:text-emerald-200",
  info: "border-blue-200 bg-blue-50 text-blue-800 dark:border-blue-900/60 dark:bg-blue-950/50 dark:text-blue-200",
  warning:
    "border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/50 dark:text-amber-200",
};
const ICONS = { error: AlertCircle, success: CheckCircle2, info: Info, warning: TriangleAlert };

/** A banner on a form or page. Errors are announced at once, others politely. */
export function Alert({
  tone,
  children,
  onDismiss,
  className,
  id,
}: {
  tone: keyof typeof TONES;
  children: ReactNode;
  onDismiss?: () => void;
  className?: string;
  id?: string;
}) {
  const Icon = ICONS[tone];
  return (
    <div
      id={id}
      role={tone === "error" ? "alert" : "status"}
      className={cn("flex items-start gap-3 rounded-lg border px-4 py-3 text-sm", TONES[tone], className)}
    >
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 flex-1">{children}</div>
      {onDismiss ? (
        <button
          type="button"
          onClick={onDismiss}
          className="-m-1 rounded p-1 text-xs font-medium underline-offset-2 hover:underline"
        >
          Dismiss
          <X aria-hidden className="ml-1 inline size-3" />
        </button>
      ) : null}
    </div>
  );
}
