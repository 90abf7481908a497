import type { LucideIcon } from "lucide-react";

/** "Nothing here" with what to do about it. */
export function EmptyState({ Icon, title, text }: { Icon: LucideIcon; title: string; text: string }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center dark:border-slate-700 dark:bg-slate-900">
      <Icon aria-hidden className="size-8 text-slate-400" />
      <p className="font-semibold">{title}</p>
      <p className="text-sm text-slate-500 dark:text-slate-400">{text}</p>
    </div>
  );
}
