import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/** A real SMTP listener on 127.0.0.1 receives what the mail module sends. */
describe("mail through SMTP when SMTP_URL is set", () => {
  const received: { from: string; to: string[]; raw: string }[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("delivers a confirmation message with its link to the recipient", async () => {
    vi.stubEnv("SMTP_URL", `smtp://127.0.0.1:${port}`);
    vi.stubEnv("MAIL_FROM", "Namecard <cards@example.com>");
    vi.resetModules();
    const { sendMail } = await import("~/.server/platform/mail");
    const link = "http://localhost:3000/api/auth/verify-email?token=abc";
    await sendMail({
      to: "grace@example.org",
      subject: "Confirm your email for Namecard",
      text: `Hello Grace,\n\nConfirm my email: ${link}`,
      html: `<p>Hello Grace,</p><p><a href="${link}">Confirm my email</a></p>`,
      link,
    });
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe("cards@example.com");
    expect(received[0]!.to).toEqual(["grace@example.org"]);
    expect(received[0]!.raw).toMatch(/^Subject: Confirm your email for Namecard/m);
    expect(received[0]!.raw.replace(/=\r?\n/g, "")).toContain("verify-email?token=abc");
  });
});
