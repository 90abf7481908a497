// Several server processes on one port (docs/decisions/035-both-cores-and-many-instances.md):
// with PROCESSES above 1, this process forks that many copies of the server,
// which share the port through Node's cluster module, and only supervises
// them. Each is a whole instance, as a second machine would be: it hears the
// others' changes through PostgreSQL, so this needs DATABASE_URL (the embedded
// database belongs to one process).
import cluster from "node:cluster";
import os from "node:os";
import { fileURLToPath } from "node:url";

/** How many processes `PROCESSES` asks for: a whole number, or `auto` for one per core. */
export function processCount(value = process.env.PROCESSES) {
  const text = (value ?? "").trim().toLowerCase();
  if (text === "" || text === "1") return 1;
  if (text === "auto") return os.availableParallelism();
  if (!/^[1-9][0-9]?$/.test(text)) {
    throw new Error(
      `[config] PROCESSES must be a whole number from 1 to 99, or auto (one per core); it is "${value}".`,
    );
  }
  return Number(text);
}

/** A process that stopped sooner than this after its start is not started again at once. */
const QUICK_EXIT_MS = 10_000;
const RESTART_MAX_DELAY_MS = 30_000;

/**
 * Forks `count` server processes and keeps them running: one that crashes is
 * started again (after a growing pause if it keeps crashing, or if it cannot
 * start); while none has started yet, one that cannot start (a configuration
 * fault, which every copy would meet) stops the others and ends this process
 * with its code. SIGTERM or SIGINT stops them
 * all gracefully; a second one stops them at once.
 */
export function superviseProcesses(count) {
  if (!process.env.DATABASE_URL?.trim() && !process.env.DATABASE_URL_FILE?.trim()) {
    console.error(
      `[config] PROCESSES=${process.env.PROCESSES} needs DATABASE_URL: the embedded database can be opened by one process only. Set DATABASE_URL to a PostgreSQL database, or leave PROCESSES unset.`,
    );
    process.exit(1);
  }
  let stopping = false;
  let exitCode = 0;
  /** Whether any process has listened yet: until one has, a process that cannot start means none can. */
  let started = false;
  /** The slot (1…count) each live worker fills, so a replacement takes over its slot's files. */
  const slots = new Map();
  const delays = new Map();

  const fork = (slot) => {
    const worker = cluster.fork({ NAMECARD_PROCESS_SLOT: String(slot), NAMECARD_PROCESSES: String(count) });
    slots.set(worker.id, { slot, startedAt: Date.now(), listening: false });
  };

  cluster.on("listening", (worker) => {
    const entry = slots.get(worker.id);
    if (entry) entry.listening = true;
    started = true;
  });

  cluster.on("exit", (worker, code, signal) => {
    const entry = slots.get(worker.id);
    slots.delete(worker.id);
    if (!entry) return;
    if (stopping) {
      // A process that did not stop cleanly (an error, or cut off by a signal) makes the whole stop unclean.
      if (code || signal) exitCode = exitCode || code || 1;
      if (slots.size === 0) {
        console.info("[server] every process has stopped");
        process.exit(exitCode);
      }
      return;
    }
    if (!started) {
      // None has ever started: the same fault (the configuration) would stop every copy, so stop them all and say so once.
      console.error(`[server] process ${entry.slot} could not start (exit code ${code ?? signal}); stopping`);
      stopAll("SIGTERM", code || 1);
      return;
    }
    // One that ended early (or, replacing another, could not start: the database away for a moment) waits longer each time.
    const quick = !entry.listening || Date.now() - entry.startedAt < QUICK_EXIT_MS;
    const delay = quick ? Math.min(RESTART_MAX_DELAY_MS, (delays.get(entry.slot) ?? 500) * 2) : 0;
    delays.set(entry.slot, quick ? delay : 500);
    console.error(
      `[server] process ${entry.slot} ended (${signal ?? `exit code ${code}`}); starting it again${delay ? ` in ${delay / 1000} s` : ""}`,
    );
    setTimeout(() => {
      if (!stopping) fork(entry.slot);
    }, delay);
  });

  const stopAll = (signal, code = 0) => {
    if (stopping) {
      console.warn(`[server] ${signal} again: stopping every process now`);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(1);
    }
    stopping = true;
    exitCode = code;
    if (slots.size === 0) process.exit(exitCode);
    // Each process stops as it would alone: requests in flight finish, then its database connections close.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
  };
  process.on("SIGTERM", () => stopAll("SIGTERM"));
  process.on("SIGINT", () => stopAll("SIGINT"));

  // Each runs the server itself, whatever started this one (`npm start` builds first).
  cluster.setupPrimary({ exec: fileURLToPath(new URL("../server.js", import.meta.url)) });
  console.info(`[server] starting ${count} processes on one port`);
  for (let slot = 1; slot <= count; slot++) fork(slot);
}
