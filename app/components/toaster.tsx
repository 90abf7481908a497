import { useEffect, useState } from "react";
import { Alert } from "~/components/ui/alert";

/** Spec §9: dashboard banners clear after 5 seconds (brand success after 3). */
export const BANNER_MS = 5_000;

export type BannerMessage = { tone: "success" | "error"; text: string; id: number };

/** A success or error banner that clears itself, or on 'Dismiss'. */
export function TimedBanner({ message, duration = BANNER_MS }: { message: BannerMessage | null; duration?: number }) {
  const [shown, setShown] = useState<BannerMessage | null>(message);
  useEffect(() => {
    setShown(message);
    if (!message || !Number.isFinite(duration)) return;
    const timer = setTimeout(() => setShown(null), duration);
    return () => clearTimeout(timer);
  }, [message, duration]);
  if (!shown) return null;
  return (
    <Alert tone={shown.tone} onDismiss={() => setShown(null)} className="mb-6">
      {shown.text}
    </Alert>
  );
}
