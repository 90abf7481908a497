import { UserX } from "lucide-react";
import type { ReactNode } from "react";

/** A card or QR page that does not exist; `children` is the way back, when there is one. */
export function NotFoundCard({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center p-6">
      <div className="max-w-sm space-y-4 text-center">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800">
          <UserX aria-hidden className="size-7" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight">Profile not found</h1>
        <p className="text-slate-600 dark:text-slate-400">{text}</p>
        {children}
      </div>
    </main>
  );
}
