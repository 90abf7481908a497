import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { mailJobs, profiles } from "~/.server/db/schema";
import { issueInvitationMails } from "~/.server/invitations/invitations";
import { formStamp, LeadSchema, MIN_FILL_MS, submitLead } from "~/.server/leads/submit";
import { IN_CI } from "../support/checkers";
import { present } from "../support/present";
import { freePort } from "../support/server-process";

/**
 * Real server processes sharing one PostgreSQL (this file runs on PostgreSQL
 * only) work one mail queue: every invitation reaches its person exactly once,
 * and mail queued while the servers were down leaves once one starts again:
 * a lead's two mails (to the card's owner, and the card to the visitor) too.
 */
const SERVER_START_TIMEOUT_MS = 45_000;

const BUILT = fs.existsSync("build/server/index.js");
if (!BUILT) {
  const message = "the mail queue's multi-process test starts the built server: run `npm run build` first";
  if (IN_CI) throw new Error(message);
  console.warn(`\n[tests] SKIPPED: ${message}\n`);
}

describe.skipIf(!BUILT)("the mail queue shared by two server processes on one PostgreSQL", () => {
  const received: string[] = [];
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
    if (server.process.exitCode !== null) return server.process.exitCode;
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
        stream.on("data", () => {});
        stream.on("end", () => {
          received.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
          // A mail server takes a moment per message, so the processes overlap.
          setTimeout(() => callback(), 20);
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    smtpPort = (smtp.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
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
      input: LeadSchema.parse({ name: "Vic Visitor", email: "vic@visitor.example", consent: "yes", wantsCard: "yes" }),
      stamp: formStamp(owner.id, Date.now() - MIN_FILL_MS - 1_000),
      honeypot: "",
      source: "qr",
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
});
