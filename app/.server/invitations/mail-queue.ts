import { and, asc, desc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { db } from "../db/client";
import { type MailJob, mailJobs } from "../db/schema";
import { type MailMessage, sendMail } from "../mail";

/**
 * The mail queue kept in the database (docs/decisions/021-invitations-and-the-mail-queue.md).
 * Each process claims due jobs with `FOR UPDATE SKIP LOCKED`, so a job is
 * taken by one process only however many share the database; a claim holds a
 * lease, and a job whose lease ran out (its process crashed) is taken again.
 * A failing send is tried again later with a growing wait, and after
 * MAX_ATTEMPTS it is marked failed for the administrator to retry.
 */

/** Tries per job before it is shown as failed. */
export const MAX_ATTEMPTS = 5;
/** How long a claimed job is its process's own; past it another process may take it. */
export const LEASE_MS = 5 * 60_000;
const FIRST_RETRY_MS = 60_000;
const LONGEST_WAIT_MS = 60 * 60_000;
/** Jobs sent this long ago are removed. */
const KEEP_SENT_MS = 30 * 24 * 60 * 60_000;

/** The wait before the next try after `attempts` failed ones: 1, 2, 4, 8… minutes, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_WAIT_MS);
}

/**
 * What a job sends, made when it is sent: null means there is nothing to send
 * any more (the card was claimed or deleted), and the job is dropped.
 */
export type JobRenderer = (job: MailJob, now: Date) => Promise<MailMessage | null>;

const renderers = new Map<MailJob["kind"], JobRenderer>();

export function registerMailJob(kind: MailJob["kind"], render: JobRenderer) {
  renderers.set(kind, render);
}

/** Takes up to `limit` due jobs (pending and due, or sending with a lapsed lease) for this process. */
export async function claimDueJobs(now: Date, limit = 10): Promise<MailJob[]> {
  const due = db
    .select({ id: mailJobs.id })
    .from(mailJobs)
    .where(
      or(
        and(eq(mailJobs.status, "pending"), lte(mailJobs.runAt, now)),
        and(eq(mailJobs.status, "sending"), lte(mailJobs.lockedUntil, now)),
      ),
    )
    .orderBy(asc(mailJobs.runAt), asc(mailJobs.id))
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .update(mailJobs)
    .set({
      status: "sending",
      attempts: sql`${mailJobs.attempts} + 1`,
      lockedUntil: new Date(now.getTime() + LEASE_MS),
    })
    .where(inArray(mailJobs.id, due))
    .returning();
}

type Send = (message: MailMessage) => Promise<void>;

/** The claim this process holds: a job another process took over after the lease is not touched. */
function held(job: MailJob) {
  return and(eq(mailJobs.id, job.id), eq(mailJobs.status, "sending"), eq(mailJobs.attempts, job.attempts));
}

async function runJob(job: MailJob, now: Date, send: Send): Promise<"sent" | "dropped" | "retry" | "failed"> {
  try {
    const render = renderers.get(job.kind);
    if (!render) throw new Error(`No mail is defined for jobs of kind "${job.kind}"`);
    const message = await render(job, now);
    if (!message) {
      await db.delete(mailJobs).where(held(job));
      return "dropped";
    }
    await send(message);
  } catch (error) {
    const reason = ((error as Error).message || String(error)).slice(0, 500);
    const failed = job.attempts >= MAX_ATTEMPTS;
    await db
      .update(mailJobs)
      .set({
        status: failed ? "failed" : "pending",
        lastError: reason,
        lockedUntil: null,
        runAt: failed ? job.runAt : new Date(now.getTime() + retryDelayMs(job.attempts)),
      })
      .where(held(job));
    console.error(
      `[mail-queue] ${job.kind} to ${job.email} failed (try ${job.attempts} of ${MAX_ATTEMPTS}${failed ? ", giving up" : ""}): ${reason}`,
    );
    return failed ? "failed" : "retry";
  }
  await db.update(mailJobs).set({ status: "sent", sentAt: now, lockedUntil: null, lastError: null }).where(held(job));
  return "sent";
}

export type QueueRun = { sent: number; dropped: number; retry: number; failed: number };

/**
 * Sends every job due at `now`, a batch at a time, until none is left. `now`
 * and `send` are given by tests (a clock they move, an SMTP server of their own).
 */
export async function processDueJobs(options: { now?: Date; send?: Send; limit?: number } = {}): Promise<QueueRun> {
  const now = options.now ?? new Date();
  const send = options.send ?? ((message) => sendMail(message));
  const run: QueueRun = { sent: 0, dropped: 0, retry: 0, failed: 0 };
  for (;;) {
    const jobs = await claimDueJobs(now, options.limit ?? 10);
    if (jobs.length === 0) break;
    for (const job of jobs) run[await runJob(job, now, send)]++;
  }
  await db
    .delete(mailJobs)
    .where(and(eq(mailJobs.status, "sent"), lte(mailJobs.sentAt, new Date(now.getTime() - KEEP_SENT_MS))));
  return run;
}

/** The mails that could not be sent after every try, newest first. */
export async function failedJobs(limit = 50) {
  const rows = await db
    .select({
      id: mailJobs.id,
      kind: mailJobs.kind,
      email: mailJobs.email,
      attempts: mailJobs.attempts,
      lastError: mailJobs.lastError,
      runAt: mailJobs.runAt,
    })
    .from(mailJobs)
    .where(eq(mailJobs.status, "failed"))
    .orderBy(desc(mailJobs.runAt), desc(mailJobs.id))
    .limit(limit);
  const [count] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(mailJobs)
    .where(eq(mailJobs.status, "failed"));
  return { rows, count: count?.count ?? 0 };
}

/** Puts every failed job back in the queue for a fresh round of tries; returns how many. */
export async function retryFailedJobs(now = new Date()): Promise<number> {
  const retried = await db
    .update(mailJobs)
    .set({ status: "pending", attempts: 0, runAt: now, lockedUntil: null })
    .where(eq(mailJobs.status, "failed"))
    .returning({ id: mailJobs.id });
  if (retried.length) wakeMailQueue();
  return retried.length;
}

// ── The worker that runs with the server ────────────────────────────────────

type Worker = { tick: () => void; again: boolean; stopped: boolean };
let worker: Worker | undefined;

/**
 * Starts this process's worker: every `intervalMs`, and at once when a job is
 * queued in this process, it runs `beforeEach` (the automatic reminders), then
 * sends what is due. Its timer never keeps the process alive; the function it
 * returns stops it and waits for the round in progress.
 */
export function startMailQueue(options: { intervalMs?: number; beforeEach?: (now: Date) => Promise<unknown> } = {}) {
  const intervalMs = options.intervalMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const current: Worker = {
    again: false,
    stopped: false,
    tick() {
      if (current.stopped) return;
      if (running) {
        current.again = true;
        return;
      }
      clearTimeout(timer);
      current.again = false;
      running = (async () => {
        try {
          const now = new Date();
          await options.beforeEach?.(now);
          await processDueJobs({ now });
        } catch (error) {
          console.error("[mail-queue] the queue could not be worked:", (error as Error).message);
        }
      })().finally(() => {
        running = undefined;
        if (current.stopped) return;
        timer = setTimeout(() => current.tick(), current.again ? 0 : intervalMs);
        timer.unref();
      });
    },
  };
  worker = current;
  current.tick();
  return async function stopMailQueue() {
    current.stopped = true;
    clearTimeout(timer);
    await running;
    if (worker === current) worker = undefined;
  };
}

/** Asks this process's worker, if it runs, to look at the queue now. */
export function wakeMailQueue() {
  worker?.tick();
}
