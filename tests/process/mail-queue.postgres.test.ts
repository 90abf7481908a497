import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueInvitationMails } from "~/.server/invitations/invitations";
import { LEASE_MS, POLL_MS } from "~/.server/invitations/mail-queue";
import { formStamp, leadSchema, MIN_FILL_MS, submitLead } from "~/.server/leads/submit";
import { db } from "~/.server/platform/db/client";
import { mailJobs, profiles } from "~/.server/platform/db/schema";
import { IN_CI } from "../support/checkers";
import { present } from "../support/present";
import { freePort } from "../support/server-process";

/**
 * Real server processes sharing one PostgreSQL (this file runs on PostgreSQL
 * only) work one mail queue: every invitation reaches its person exactly once,
 * and mail queued while the servers were down leaves once one starts again:
 * a lead's two mails (to the card's owner, and the card to the visitor) too.
 * The mail of a process killed mid-send leaves from another a lease later.
 */
const SERVER_START_TIMEOUT_MS = 45_000;

function messageIdOf(raw: string) {
  return /^Message-ID: (.*?)\r?$/im.exec(raw)?.[1] ?? null;
}

const BUILT = fs.existsSync("build/server/index.js");
if (!BUILT) {
  const message = "the mail queue's multi-process test starts the built server: run `npm run build` first";
  if (IN_CI) throw new Error(message);
  console.warn(`\n[tests] SKIPPED: ${message}\n`);
}

describe.skipIf(!BUILT)("the mail queue shared by two server processes on one PostgreSQL", () => {
  const received: string[] = [];
  /** Each message as the mail server took it. */
  const messages: { to: string[]; raw: string }[] = [];
  /** The answer to the next message is held back (its sender is to die waiting for it). */
  let holdNext = false;
  const heldResponses: (() => void)[] = [];
  let smtp: SMTPServer;
  let smtpPort = 0;
  const servers: { process: ChildProcess; dataDir: string; log: string[] }[] = [];

  async function startServer() {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-queue-"));
    const child = spawn(process.execPath, ["server.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        PUBLIC_URL: `http://localhost:${port}`,
        DATABASE_URL: process.env.NAMECARD_FILE_DATABASE_URL,
        DATA_DIR: dataDir,
        AUTH_SECRET: process.env.AUTH_SECRET,
        ADMIN_EMAILS: "",
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const server = { process: child, dataDir, log: [] as string[] };
    child.stdout?.on("data", (chunk: Buffer) => server.log.push(chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => server.log.push(chunk.toString()));
    servers.push(server);
    const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${server.log.join("")}`);
      try {
        if ((await fetch(`http://localhost:${port}/healthz`)).ok) return server;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    throw new Error("server did not start");
  }

  async function stopServer(server: (typeof servers)[number]) {
    // A process killed by a signal has no exit code, only the signal.
    if (server.process.exitCode !== null || server.process.signalCode !== null) return server.process.exitCode;
    const exited = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
    server.process.kill("SIGTERM");
    return exited;
  }

  async function queueInvitations(prefix: string, count: number) {
    const cards = await db
      .insert(profiles)
      .values(
        Array.from({ length: count }, (_, index) => ({
          email: `${prefix}${index}@example.org`,
          firstName: "Queue",
          lastName: `Person ${index}`,
          username: `${prefix}.${index}`,
        })),
      )
      .returning({ id: profiles.id });
    await issueInvitationMails({ kind: "invitation", scope: { ids: cards.map((card) => card.id) } });
  }

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
          received.push(...to);
          messages.push({ to, raw: Buffer.concat(chunks).toString("utf8") });
          if (holdNext) {
            holdNext = false;
            heldResponses.push(() => callback());
            return;
          }
          // A mail server takes a moment per message, so the processes overlap.
          setTimeout(() => callback(), 20);
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    smtpPort = (smtp.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const answer of heldResponses.splice(0)) answer();
    for (const server of servers) {
      await stopServer(server);
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it("sends each queued invitation exactly once, and after a restart sends what was queued meanwhile", async () => {
    await queueInvitations("first", 40);
    const [a, b] = await Promise.all([startServer(), startServer()]);

    const allSent = async () =>
      (await db.select({ status: mailJobs.status }).from(mailJobs)).every((job) => job.status === "sent");
    await expect.poll(allSent, { timeout: 60_000, interval: 250 }).toBe(true);
    expect(received).toHaveLength(40);
    expect(new Set(received).size).toBe(40);
    const sentBy = [a, b].map((server) => server.log.join("").match(/\[mail\] sent "/g)?.length ?? 0);
    expect((sentBy[0] ?? 0) + (sentBy[1] ?? 0)).toBe(40);

    // Both stop cleanly; mail queued while they are down waits in the database.
    expect(await stopServer(a)).toBe(0);
    expect(await stopServer(b)).toBe(0);
    await queueInvitations("second", 5);
    const [inserted] = await db
      .insert(profiles)
      .values({ email: "lead.owner@example.org", firstName: "Lena", lastName: "Owner", username: "lena.owner" })
      .returning();
    const owner = present(inserted, "the lead's card");
    const lead = await submitLead({
      card: { id: owner.id, firstName: "Lena", lastName: "Owner", email: owner.email, company: "Namecard" },
      input: leadSchema("en").parse({
        name: "Vic Visitor",
        email: "vic@visitor.example",
        consent: "yes",
        wantsCard: "yes",
      }),
      stamp: formStamp(owner.id, Date.now() - MIN_FILL_MS - 1_000),
      honeypot: "",
      source: "qr",
      locale: "en",
      ip: "10.77.0.1",
    });
    expect(lead.kind).toBe("stored");
    expect(received).toHaveLength(40);

    await startServer();
    await expect.poll(allSent, { timeout: 60_000, interval: 250 }).toBe(true);
    expect(received).toHaveLength(47);
    expect(new Set(received).size).toBe(47);
    expect(received.filter((address) => address.startsWith("second"))).toHaveLength(5);
    // One mail per lead, and the card to the visitor who asked for it: once each.
    expect(received.filter((address) => address === "lead.owner@example.org")).toHaveLength(1);
    expect(received.filter((address) => address === "vic@visitor.example")).toHaveLength(1);
  });

  it(
    "sends the mail of a process killed mid-send from another a lease later, the one in flight under the same Message-ID",
    async () => {
      for (const server of servers) await stopServer(server);
      received.length = 0;
      messages.length = 0;
      await queueInvitations("killed", 5);
      // The first process claims all five; the mail server has the first whole, but the process is
      // killed before it hears the answer, the other four waiting behind it in its batch.
      holdNext = true;
      const doomed = await startServer();
      await expect.poll(() => messages.length, { timeout: 30_000 }).toBe(1);
      const inFlight = present(messages[0], "the mail in flight");
      const jobs = await db.select().from(mailJobs);
      expect(jobs.map((job) => job.status)).toEqual(Array(5).fill("sending"));
      const exited = new Promise((resolve) => doomed.process.once("exit", resolve));
      doomed.process.kill("SIGKILL");
      await exited;

      // Another process takes them over once their lease has run out (LEASE_MS + POLL_MS at most).
      await startServer();
      const allSent = async () =>
        (await db.select({ status: mailJobs.status }).from(mailJobs)).every((job) => job.status === "sent");
      await expect.poll(allSent, { timeout: 2 * (LEASE_MS + POLL_MS), interval: 500 }).toBe(true);
      // Each of the four once; the one in flight twice, both copies under the same Message-ID.
      expect(messages).toHaveLength(6);
      expect(new Set(received).size).toBe(5);
      const copies = messages.filter((message) => message.to.join() === inFlight.to.join());
      expect(copies).toHaveLength(2);
      const messageId = messageIdOf(inFlight.raw);
      expect(messageId).toMatch(/^<.+@localhost>$/);
      expect(copies.map((copy) => messageIdOf(copy.raw))).toEqual([messageId, messageId]);
      const retaken = await db
        .select()
        .from(mailJobs)
        .where(eq(mailJobs.email, present(inFlight.to[0], "its address")));
      expect(retaken).toMatchObject([{ status: "sent", attempts: 2, messageId }]);
    },
    3 * (LEASE_MS + POLL_MS) + 2 * SERVER_START_TIMEOUT_MS,
  );
});
