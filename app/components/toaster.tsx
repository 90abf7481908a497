import { useEffect, useRef, useState } from "react";
import { Alert } from "~/components/ui/alert";
import { onClientToast, TOAST_SEEN_COOKIE, type Toast } from "~/lib/toast";

/**
 * Shows the toast the root loader handed over: announced to screen readers,
 * dismissible, and gone by itself after its time. A new toast replaces it;
 * moving on to another page does not cut it short.
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  const [shown, setShown] = useState<Toast | null>(toast);
  const lastId = useRef<string | null>(null);
  useEffect(() => {
    // The same toast can come back with a later load until the server hears it was seen.
    if (!toast || toast.id === lastId.current) return;
    lastId.current = toast.id;
    setShown(toast);
    // biome-ignore lint/suspicious/noDocumentCookie: a plain note to the server, readable by every browser
    document.cookie = `${TOAST_SEEN_COOKIE}=${encodeURIComponent(toast.id)}; Path=/; Max-Age=60; SameSite=Lax`;
  }, [toast]);
  // Toasts raised in the browser (a file downloaded) show the same way.
  useEffect(() => onClientToast(setShown), []);
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(null), shown.durationMs);
    return () => clearTimeout(timer);
  }, [shown]);
  if (!shown) return null;
  return (
    // On a phone the toast sits above the bottom bar, clear of the page's own toolbar at the top (a card's
    // owner lands on their card with its tools there); on wider screens, at the top.
    <div className="pointer-events-none fixed inset-x-0 bottom-20 z-[60] flex justify-center px-4 sm:top-5 sm:bottom-auto">
      <Alert
        key={shown.id}
        tone={shown.tone}
        onDismiss={() => setShown(null)}
        className="pointer-events-auto w-full max-w-lg shadow-lg"
      >
        {shown.text}
      </Alert>
    </div>
  );
}
