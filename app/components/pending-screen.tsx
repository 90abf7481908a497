import { Construction } from "lucide-react";
import { PageHeader } from "~/components/page-header";

/** A screen whose content has not landed yet: says so plainly rather than pretending. */
export function PendingScreen({ title, description }: { title: string; description: string }) {
  return (
    <div>
      <PageHeader title={title} description={description} />
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white p-12 text-center dark:border-slate-700 dark:bg-slate-900">
        <Construction aria-hidden className="size-8 text-slate-400" />
        <p className="font-medium">This screen is on its way.</p>
        <p className="max-w-sm text-sm text-slate-500 dark:text-slate-400">
          It arrives in an upcoming release of this installation.
        </p>
      </div>
    </div>
  );
}
