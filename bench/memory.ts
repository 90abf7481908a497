import fs from "node:fs";

/** A process's resident memory now and at its peak so far, in MB (Linux's /proc). */
export function memoryOf(pid: number | undefined): { rss: number; peak: number } {
  if (!pid) return { rss: 0, peak: 0 };
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/**
 * The processor time a process has used so far, every thread included, in ms (Linux's /proc,
 * at its 100 ticks a second). Per request, it moves far less between runs on a noisy machine
 * than requests per second do.
 */
export function processorTimeOf(pid: number | undefined): number {
  if (!pid) return 0;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // The name is in parentheses and may hold any character: the fields start after the last one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the name: state, then nine fields, then user and system time.
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}
