import { useEffect, useState } from "react";

const OPTIONS: Intl.DateTimeFormatOptions = {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZoneName: "short",
};

/**
 * A moment, shown in the viewer's own time zone and named ("28 Nov 2026,
 * 18:33 GMT+9"). The server cannot know the zone: it writes the time in UTC
 * and says so, and the browser rewrites it in its own zone once the page runs.
 */
export function LocalTime({ at, className }: { at: string; className?: string }) {
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const date = new Date(at);
  const text = Number.isNaN(date.getTime())
    ? at
    : new Intl.DateTimeFormat("en-GB", { ...OPTIONS, timeZone: zone ?? "UTC" }).format(date);
  return (
    <time dateTime={at} className={className}>
      {text}
    </time>
  );
}
