import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findInvitation, issueInvitationMails } from "~/.server/invitations/invitations";
import { LEASE_MS, POLL_MS, processDueJobs } from "~/.server/invitations/mail-queue";
import { db } from "~/.server/platform/db/client";
import { mailJobs } from "~/.server/platform/db/schema";
import { alreadySent, type MailMessage, OUTBOX_DIR, sendMail } from "~/.server/platform/mail";
import { insertCard, latestMail, present } from "./helpers";

/**
 * A process killed mid-send (kill -9, issue 41): its mail is taken over a lease
 * after its last renewal, not written to the outbox twice, and sent again
 * through SMTP under the same Message-ID; a process still sending keeps its
 * jobs however long the mail server takes. The clock is the test's: a process
 * whose clock stands still renews nothing past it, as a dead one.
 */

const START = new Date("2026-11-10T10:00:00Z");
const at = (ms: number) => new Date(START.getTime() + ms);

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

async function theJob() {
  const jobs = await db.select().from(mailJobs);
  expect(jobs).toHaveLength(1);
  return present(jobs[0], "the mail job");
}

function messageIdOf(raw: string) {
  return /^Message-ID: (.*?)\r?$/im.exec(raw)?.[1] ?? null;
}

/** The outbox files holding the message with this Message-ID. */
function outboxFilesOf(messageId: string) {
  if (!fs.existsSync(OUTBOX_DIR)) return [];
  return fs
    .readdirSync(OUTBOX_DIR)
    .filter((name) => name.endsWith(".eml"))
    .filter((name) => messageIdOf(fs.readFileSync(path.join(OUTBOX_DIR, name), "utf8")) === messageId);
}

const tokenOf = (link: string) => present(new URL(link).searchParams.get("token"), "the link's token");

describe("mail of a process that died mid-send", () => {
  it("frees a dead process's job within a minute: a lease after its last renewal, then one look at the queue", () => {
    expect(LEASE_MS + POLL_MS).toBeLessThanOrEqual(60_000);
  });

  it("marks sent, without a second file, a mail its process wrote to the outbox before it died; its link still works", async () => {
    const card = await insertCard({ email: "olive@example.org" });
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] }, now: START });
    // The first process writes the mail, then dies before recording it: its send never returns.
    const written = deferred<MailMessage>();
    const killed = deferred();
    const dead = processDueJobs({
      now: START,
      send: async (message) => {
        await sendMail(message);
        written.resolve(message);
        await killed.promise;
      },
    });
    const first = await written.promise;
    const job = await theJob();
    expect(job).toMatchObject({ status: "sending", attempts: 1, messageId: first.messageId });
    const messageId = present(job.messageId, "the recorded Message-ID");
    expect(outboxFilesOf(messageId)).toHaveLength(1);
    expect(await alreadySent(messageId)).toBe(true);

    const again: MailMessage[] = [];
    const sendAgain = async (message: MailMessage) => void again.push(message);
    // Not before its lease has run out…
    expect(await processDueJobs({ now: at(LEASE_MS - 1), send: sendAgain })).toMatchObject({ sent: 0 });
    // …and then found in the outbox: recorded as sent, neither made nor written again.
    expect(await processDueJobs({ now: at(LEASE_MS), send: sendAgain })).toMatchObject({ sent: 1, failed: 0 });
    expect(again).toEqual([]);
    expect(outboxFilesOf(messageId)).toHaveLength(1);
    expect(await theJob()).toMatchObject({ status: "sent", attempts: 2, messageId });
    // The delivered mail's link is still the card's live one (a mail made again would have replaced it).
    const mail = present(latestMail("olive@example.org"), "the invitation in the outbox");
    expect(messageIdOf(mail.raw)).toBe(messageId);
    expect(await findInvitation(tokenOf(present(mail.link, "the link")), db, at(LEASE_MS))).not.toBeNull();

    // Should the first process come back after all, it leaves the job to the one that took it.
    killed.resolve();
    expect(await dead).toMatchObject({ sent: 0 });
    expect(await theJob()).toMatchObject({ status: "sent", attempts: 2 });
  });

  describe("through SMTP", () => {
    let server: SMTPServer;
    let smtpUrl = "";
    const received: string[] = [];
    /** The mail server's answer to the first message, held back: its sender dies waiting for it. */
    let holdFirst = false;
    const heldResponses: (() => void)[] = [];

    beforeAll(async () => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        onData(stream: SMTPServerDataStream, _session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            received.push(Buffer.concat(chunks).toString("utf8"));
            if (holdFirst && received.length === 1) heldResponses.push(() => callback());
            else callback();
          });
        },
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      for (const answer of heldResponses) answer();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it("sends again, under the same Message-ID, a mail the server took before its sender died, once the lease has run out", async () => {
      const card = await insertCard({ email: "sami@example.org" });
      await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] }, now: START });
      const throughSmtp = {
        send: (message: MailMessage) => sendMail(message, smtpUrl),
        alreadySent: (messageId: string) => alreadySent(messageId, smtpUrl),
      };
      holdFirst = true;
      // The server has the whole message; its sender dies before it hears the answer.
      const dead = processDueJobs({ now: START, ...throughSmtp });
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
      const messageId = present((await theJob()).messageId, "the recorded Message-ID");
      expect(messageIdOf(present(received[0], "the first copy"))).toBe(messageId);
      // An SMTP server cannot be asked what it took.
      expect(await alreadySent(messageId, smtpUrl)).toBe(false);

      expect(await processDueJobs({ now: at(LEASE_MS - 1), ...throughSmtp })).toMatchObject({ sent: 0 });
      expect(received).toHaveLength(1);
      expect(await processDueJobs({ now: at(LEASE_MS), ...throughSmtp })).toMatchObject({ sent: 1, failed: 0 });
      expect(received).toHaveLength(2);
      expect(messageIdOf(present(received[1], "the second copy"))).toBe(messageId);
      expect(await theJob()).toMatchObject({ status: "sent", attempts: 2, messageId });

      // The answer the dead process waited for changes nothing.
      for (const answer of heldResponses.splice(0)) answer();
      expect(await dead).toMatchObject({ sent: 0 });
      expect(await theJob()).toMatchObject({ status: "sent", attempts: 2 });
    });
  });

  it("keeps the jobs of a process still sending, however long the mail server takes: their leases are renewed", async () => {
    const cards = await Promise.all(["kim", "lou"].map((name) => insertCard({ email: `${name}@example.org` })));
    await issueInvitationMails({ kind: "invitation", scope: { ids: cards.map((card) => card.id) }, now: START });
    let now = START;
    const sending = deferred();
    const answered = deferred();
    const deliveries: string[] = [];
    const holder = processDueJobs({
      now: () => now,
      heartbeatMs: 5,
      send: async (message) => {
        sending.resolve();
        await answered.promise;
        deliveries.push(message.to);
      },
    });
    await sending.promise;
    const taken: MailMessage[] = [];
    for (const leases of [1, 2, 3]) {
      now = at(leases * LEASE_MS);
      // The mail being sent and the one waiting behind it in the batch are renewed from the holder's clock…
      await expect
        .poll(async () => (await db.select({ until: mailJobs.lockedUntil }).from(mailJobs)).map((job) => job.until))
        .toEqual([at((leases + 1) * LEASE_MS), at((leases + 1) * LEASE_MS)]);
      // …so another process finds nothing to take, long after the first lease would have run out.
      const other = await processDueJobs({
        now: at((leases + 1) * LEASE_MS - 1),
        send: async (message) => void taken.push(message),
      });
      expect(other).toMatchObject({ sent: 0, failed: 0 });
    }
    answered.resolve();
    expect(await holder).toMatchObject({ sent: 2, failed: 0 });
    expect(taken).toEqual([]);
    expect(deliveries.sort()).toEqual(["kim@example.org", "lou@example.org"]);
    const jobs = await db.select().from(mailJobs);
    expect(jobs.map(({ status, attempts }) => ({ status, attempts }))).toEqual([
      { status: "sent", attempts: 1 },
      { status: "sent", attempts: 1 },
    ]);
  });
});
