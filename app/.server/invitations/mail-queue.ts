import { and, asc, desc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { databaseErrorLine } from "../platform/db/errors";
import { type MailJob, mailJobs } from "../platform/db/schema";
import { diskSpaceLow } from "../platform/disk-space";
import { alreadySent, type MailMessage, newMessageId, sendMail } from "../platform/mail";

/**
 * The mail queue kept in the database (docs/decisions/021-invitations-and-the-mail-queue.md).
 * Each process claims due jobs with `FOR UPDATE SKIP LOCKED`, so a job is
 * taken by one process only however many share the database; a claim holds a
 * lease, which the process renews while it holds the job, and a job whose lease
 * ran out (its process died) is taken again. Each mail keeps one Message-ID
 * over all its tries, so a mail taken over after it had left is not written to
 * the outbox twice, and through SMTP goes again under the same Message-ID.
 * A failing send is tried again later with a growing wait, and after
 * MAX_ATTEMPTS it is marked failed for the administrator to retry.
 */

/** Tries per job before it is shown as failed. */
export const MAX_ATTEMPTS = 5;
/**
 * How long a claimed job is its process's own after its last renewal; past it
 * another process may take it. Renewed every third of it while the job is held,
 * so a long SMTP conversation keeps its job, and a dead process's job is free
 * at most a lease after it died.
 */
export const LEASE_MS = 30_000;
/**
 * How often each process looks at the queue: a dead process's mail leaves at
 * most LEASE_MS + POLL_MS (40 s) after its last renewal.
 */
export const POLL_MS = 10_000;
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

/** The time the queue's statements judge by: a test's, or undefined for the database's own (`clockOf`). */
type Clock = () => Date | undefined;

/**
 * The time a claim is judged by: the database's clock at the moment of the
 * claim, so that instances whose clocks differ agree on whose lease ran out,
 * and a long round never claims with a time already past; a test gives its own.
 */
function clockOf(now: Date | undefined) {
  return now ? sql`${now.toISOString()}::timestamptz` : sql`clock_timestamp()`;
}

function leaseFrom(clock: ReturnType<typeof clockOf>, leaseMs: number) {
  return sql`${clock} + ${`${leaseMs} milliseconds`}::interval`;
}

/** Takes up to `limit` due jobs (pending and due, or sending with a lapsed lease) for this process. */
export async function claimDueJobs(now?: Date, limit = 10, leaseMs = LEASE_MS): Promise<MailJob[]> {
  const clock = clockOf(now);
  const due = db
    .select({ id: mailJobs.id })
    .from(mailJobs)
    .where(
      or(
        and(eq(mailJobs.status, "pending"), sql`${mailJobs.runAt} <= ${clock}`),
        and(eq(mailJobs.status, "sending"), sql`${mailJobs.lockedUntil} <= ${clock}`),
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
      lockedUntil: leaseFrom(clock, leaseMs),
    })
    .where(inArray(mailJobs.id, due))
    .returning();
}

type Send = (message: MailMessage) => Promise<void>;
/** Whether the mail with this Message-ID is known to have left already (the outbox); see `alreadySent`. */
type AlreadySent = (messageId: string) => Promise<boolean>;

/** The claim this process holds: a job another process took over after the lease is not touched. */
function held(job: MailJob) {
  return and(eq(mailJobs.id, job.id), eq(mailJobs.status, "sending"), eq(mailJobs.attempts, job.attempts));
}

/**
 * Right before a job is sent: whether this process still holds it, its lease
 * renewed for the send and its Message-ID recorded (the one of an earlier try,
 * or a new one), which is returned; null when it is no longer held. A claim
 * whose lease lapsed (the renewals could not reach the database) may have been
 * taken over; then it is left to its new holder.
 */
async function readyToSend(job: MailJob, now: Date | undefined, leaseMs: number): Promise<string | null> {
  const clock = clockOf(now);
  const [ready] = await db
    .update(mailJobs)
    .set({ lockedUntil: leaseFrom(clock, leaseMs), messageId: sql`coalesce(${mailJobs.messageId}, ${newMessageId()})` })
    .where(and(held(job), sql`${mailJobs.lockedUntil} > ${clock}`))
    .returning({ messageId: mailJobs.messageId });
  return ready?.messageId ?? null;
}

/**
 * Renews the leases of the jobs a round holds (the one being sent and the rest
 * of its batch) every `everyMs` until stopped: a long SMTP conversation keeps
 * its jobs, while the jobs of a process that died are free a lease after its
 * last renewal. A job taken over in the meantime is not touched (`held`).
 */
function keepLeases(jobs: Set<MailJob>, clock: Clock, leaseMs: number, everyMs: number) {
  let renewing: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (renewing || jobs.size === 0) return;
    const now = clock();
    renewing = db
      .update(mailJobs)
      .set({ lockedUntil: leaseFrom(clockOf(now), leaseMs) })
      .where(or(...[...jobs].map(held)))
      .then(
        () => {},
        (error: unknown) => {
          console.error(
            `[mail-queue] the leases of the mail being sent could not be renewed: ${databaseErrorLine(error)}`,
          );
        },
      )
      .finally(() => {
        renewing = undefined;
      });
  }, everyMs);
  timer.unref();
  return async function stopKeeping() {
    clearInterval(timer);
    await renewing;
  };
}

/** Gives a claimed job back untried: it is due again at once, and the try it was claimed for is not counted. */
async function release(job: MailJob) {
  await db
    .update(mailJobs)
    .set({ status: "pending", attempts: sql`${mailJobs.attempts} - 1`, lockedUntil: null })
    .where(held(job));
}

/**
 * What a failed send says about the next ones. A mail server's 5xx answer is
 * final for that mail (`550 5.1.1` no such mailbox): no later try would go
 * through, so the administrator hears of it at once. No answer at all (no
 * connection, a timeout, a full outbox disk) or `421` (the service is closing)
 * is an outage: every mail after it would fail the same way, so the round ends
 * and the others keep their tries. Any other 4xx concerns this mail: it is
 * tried again later.
 */
type Failure = "final" | "outage" | "this mail";

function failureOf(error: unknown): Failure {
  const code = (error as { responseCode?: unknown }).responseCode;
  if (typeof code !== "number") return "outage";
  if (code >= 500) return "final";
  return code === 421 ? "outage" : "this mail";
}

type Outcome = "sent" | "dropped" | "retry" | "failed" | "taken over" | "outage";

/** How the log names a job: a lead's mail never by its address. */
function jobName(job: MailJob) {
  return `${job.kind} ${job.leadId ? "mail" : `to ${job.email}`}`;
}

async function markSent(job: MailJob, at: Date): Promise<Outcome> {
  const marked = await db
    .update(mailJobs)
    .set({ status: "sent", sentAt: at, lockedUntil: null, lastError: null })
    .where(held(job))
    .returning({ id: mailJobs.id });
  return marked.length > 0 ? "sent" : "taken over";
}

async function runJob(
  job: MailJob,
  clock: Clock,
  mailer: { send: Send; alreadySent: AlreadySent },
  leaseMs: number,
): Promise<Outcome> {
  const at = clock() ?? new Date();
  try {
    // An earlier try recorded its Message-ID and may have delivered the mail before its process
    // died. Where that can be told (the outbox), the mail is not sent again, nor made again: an
    // invitation made again would replace the link in the one delivered.
    if (job.messageId && (await mailer.alreadySent(job.messageId))) {
      console.info(`[mail-queue] ${jobName(job)} had left before its sender stopped: marked sent`);
      return await markSent(job, at);
    }
    const render = renderers.get(job.kind);
    if (!render) throw new Error(`No mail is defined for jobs of kind "${job.kind}"`);
    const message = await render(job, at);
    if (!message) {
      await db.delete(mailJobs).where(held(job));
      return "dropped";
    }
    const messageId = await readyToSend(job, clock(), leaseMs);
    if (!messageId) return "taken over";
    await mailer.send({ ...message, messageId });
  } catch (error) {
    const reason = ((error as Error).message || String(error)).slice(0, 500);
    const failure = failureOf(error);
    const failed = failure === "final" || job.attempts >= MAX_ATTEMPTS;
    await db
      .update(mailJobs)
      .set({
        status: failed ? "failed" : "pending",
        lastError: reason,
        lockedUntil: null,
        runAt: failed ? job.runAt : new Date(at.getTime() + retryDelayMs(job.attempts)),
      })
      .where(held(job));
    console.error(
      `[mail-queue] ${jobName(job)} failed (try ${job.attempts} of ${MAX_ATTEMPTS}${failed ? ", giving up" : ""}): ${reason}`,
    );
    if (failed) return "failed";
    return failure === "outage" ? "outage" : "retry";
  }
  return markSent(job, at);
}

export type QueueRun = { sent: number; dropped: number; retry: number; failed: number };

/**
 * Sends every job due, a batch at a time, until none is left, the mail server
 * is out of reach (the rest wait for the next round with their tries intact),
 * or `stopping()` says the process is stopping (the mail in flight is finished,
 * the rest of its batch given back). While a batch is held, its leases are
 * renewed every `heartbeatMs` (a third of the lease). Tests give `now` (a time,
 * or a clock they move), `send` and `alreadySent` (an SMTP server of their own),
 * and shorter leases and renewals.
 */
export async function processDueJobs(
  options: {
    now?: Date | (() => Date);
    send?: Send;
    alreadySent?: AlreadySent;
    limit?: number;
    leaseMs?: number;
    heartbeatMs?: number;
    stopping?: () => boolean;
  } = {},
): Promise<QueueRun> {
  const { now: given } = options;
  const clock: Clock = typeof given === "function" ? given : () => given;
  const mailer = {
    send: options.send ?? ((message: MailMessage) => sendMail(message)),
    alreadySent: options.alreadySent ?? ((messageId: string) => alreadySent(messageId)),
  };
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const stopping = options.stopping ?? (() => false);
  const run: QueueRun = { sent: 0, dropped: 0, retry: 0, failed: 0 };
  let endRound = false;
  while (!endRound && !stopping()) {
    const jobs = await claimDueJobs(clock(), options.limit ?? 10, leaseMs);
    if (jobs.length === 0) break;
    const holding = new Set(jobs);
    const stopKeeping = keepLeases(holding, clock, leaseMs, options.heartbeatMs ?? leaseMs / 3);
    try {
      for (const job of jobs) {
        if (endRound || stopping()) {
          await release(job);
        } else {
          const outcome = await runJob(job, clock, mailer, leaseMs);
          if (outcome === "outage") {
            run.retry++;
            endRound = true;
          } else if (outcome !== "taken over") {
            run[outcome]++;
          }
        }
        holding.delete(job);
      }
    } finally {
      await stopKeeping();
    }
  }
  const now = clock() ?? new Date();
  await db
    .delete(mailJobs)
    .where(and(eq(mailJobs.status, "sent"), lte(mailJobs.sentAt, new Date(now.getTime() - KEEP_SENT_MS))));
  return run;
}

/**
 * The mails the administrator sees and retries: invitations and reminders. A
 * lead's mails are between a visitor and a card's owner (their addresses are
 * not the administrators' to read), and a failed one stays failed: the lead
 * itself is on its owner's Leads page.
 */
export const INVITATION_KINDS: MailJob["kind"][] = ["invitation", "reminder"];
const ADMINISTERED_KINDS = INVITATION_KINDS;
const failedAdministered = and(eq(mailJobs.status, "failed"), inArray(mailJobs.kind, ADMINISTERED_KINDS));

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
    .where(failedAdministered)
    .orderBy(desc(mailJobs.runAt), desc(mailJobs.id))
    .limit(limit);
  const [count] = await db.select({ count: sql<number>`count(*)::int` }).from(mailJobs).where(failedAdministered);
  return { rows, count: count?.count ?? 0 };
}

/** Puts every failed job back in the queue for a fresh round of tries; returns how many. */
export async function retryFailedJobs(actor: Actor, now = new Date()): Promise<number> {
  const retried = await db.transaction(async (tx) => {
    const rows = await tx
      .update(mailJobs)
      .set({ status: "pending", attempts: 0, runAt: now, lockedUntil: null })
      .where(failedAdministered)
      .returning({ id: mailJobs.id, email: mailJobs.email });
    if (rows.length) {
      await recordAdminAction(tx, {
        actor,
        action: "retry",
        target: { kind: "mail", id: null, label: rows.length === 1 ? "1 mail" : `${rows.length} mails` },
        changes: { to: [null, rows.map((row) => row.email).join(", ")] },
      });
    }
    return rows;
  });
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
 * returns stops it: the mail being sent is finished, the rest stay queued.
 */
export function startMailQueue(
  options: { intervalMs?: number; beforeEach?: (now: Date) => Promise<unknown>; send?: Send } = {},
) {
  const intervalMs = options.intervalMs ?? POLL_MS;
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
          // What runs before the round (reminders, deleting old leads) never holds back the mail already due.
          await options.beforeEach?.(now).catch((error: unknown) => {
            if (!diskSpaceLow())
              console.error(`[mail-queue] the work before a round failed: ${databaseErrorLine(error)}`);
          });
          await processDueJobs({ send: options.send, stopping: () => current.stopped });
        } catch (error) {
          // While the disk is too full for changes, that one line (app/.server/platform/disk-space.ts) says why.
          if (!diskSpaceLow()) console.error(`[mail-queue] the queue could not be worked: ${databaseErrorLine(error)}`);
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
