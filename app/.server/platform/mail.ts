import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { databaseErrorLine } from "./db/errors";
import { env } from "./env";
import { loggedUrl } from "./log-redaction";

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the message is about, logged for local installs. */
  link?: string;
  /** Headers of the message's own (an unsubscribe link), never anything a visitor typed. */
  headers?: Record<string, string>;
  /** Where a reply goes: an address the schema checked, which the mailer encodes. */
  replyTo?: string;
  /** The log names neither its recipient nor its subject (a lead's, which hold what a visitor typed). */
  private?: boolean;
  /** Files sent with it (a contact card). */
  attachments?: { filename: string; content: string; contentType: string }[];
  /**
   * Its Message-ID, when the sender keeps one (the mail queue, the same on every try, so a
   * repeat can be told); otherwise the mailer makes one.
   */
  messageId?: string;
};

export const OUTBOX_DIR = path.join(env.DATA_DIR, "mail");

/** A new Message-ID (RFC 5322) on this site's host name. */
export function newMessageId(): string {
  return `<${randomUUID()}@${new URL(env.PUBLIC_URL).hostname}>`;
}

/** The end of an outbox file's name that a Message-ID gives: the file of one message is found by it. */
function outboxEnding(messageId: string) {
  return `-${createHash("sha256").update(messageId).digest("hex").slice(0, 16)}.eml`;
}

/**
 * Whether the message with this Message-ID is known to have left already: in
 * the `.eml` outbox, its file is there. An SMTP server cannot be asked what it
 * accepted, so through SMTP it is never known, and the caller sends again under
 * the same Message-ID (docs/decisions/021-invitations-and-the-mail-queue.md).
 */
export async function alreadySent(messageId: string, smtpUrl = env.SMTP_URL): Promise<boolean> {
  if (smtpUrl) return false;
  const ending = outboxEnding(messageId);
  try {
    return (await fs.readdir(OUTBOX_DIR)).some((name) => name.endsWith(ending));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** One SMTP transport per server address. */
const smtp = new Map<string, Transporter>();
const renderer = nodemailer.createTransport({
  streamTransport: true,
  buffer: true,
  newline: "windows",
});

/**
 * Sends through SMTP when SMTP_URL is set; otherwise writes an `.eml` file to
 * DATA_DIR/mail and logs where it is, so a local install needs no mail server.
 */
export async function sendMail(message: MailMessage, smtpUrl = env.SMTP_URL): Promise<void> {
  const envelope = {
    from: env.MAIL_FROM,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: message.headers,
    replyTo: message.replyTo,
    attachments: message.attachments,
    messageId: message.messageId,
  };
  if (smtpUrl) {
    let transport = smtp.get(smtpUrl);
    if (!transport) {
      transport = nodemailer.createTransport(smtpUrl);
      smtp.set(smtpUrl, transport);
    }
    await transport.sendMail(envelope);
    console.info(message.private ? "[mail] sent a lead's mail" : `[mail] sent "${message.subject}" to ${message.to}`);
    return;
  }
  const rendered = await renderer.sendMail(envelope);
  await fs.mkdir(OUTBOX_DIR, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  // A message with a Message-ID of its own is named by it too (`alreadySent`).
  const ending = message.messageId ? outboxEnding(message.messageId) : `-${randomBytes(3).toString("hex")}.eml`;
  const file = path.join(OUTBOX_DIR, `${stamp}${ending}`);
  // Written whole, then renamed: whoever reads the outbox never sees half a message.
  const temporary = `${file}.tmp`;
  try {
    await fs.writeFile(temporary, rendered.message as Buffer, { flag: "wx", mode: 0o600 });
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
  const relative = path.relative(process.cwd(), file);
  const shown = relative.startsWith("..") ? file : relative;
  console.info(
    message.private
      ? `[mail] a lead's mail written to ${shown}`
      : `[mail] "${message.subject}" to ${message.to} written to ${shown}${message.link ? ` — link: ${loggedUrl(message.link)}` : ""}`,
  );
}

const pending = new Set<Promise<void>>();

/**
 * Sends after the request has its response: how long a mail server takes must not
 * tell anyone whether an account exists, and a slow server must not hold the
 * page. A failure is logged with the recipient; the person can ask again.
 */
export function sendMailLater(message: MailMessage): void {
  const sending = sendMail(message)
    .catch((error: unknown) => {
      console.error(`[mail] could not send "${message.subject}" to ${message.to}:`, (error as Error).message);
    })
    .finally(() => pending.delete(sending));
  pending.add(sending);
}

/**
 * How long work that must not show in a response waits: long enough for the
 * response to be compressed and sent (the embedded database's queries hold the
 * thread while they run, and would hold the response with them).
 */
const AFTER_RESPONSE_MS = 200;

/**
 * Work whose time must not show in the response (whether an account exists):
 * started once the response has left, and waited for by `mailSettled` with the
 * mail it sends. A failure is logged.
 */
export function afterResponse(what: string, task: () => Promise<void>): void {
  const running = new Promise<void>((resolve) => setTimeout(resolve, AFTER_RESPONSE_MS))
    .then(task)
    .catch((error: unknown) => console.error(`[mail] ${what} failed: ${databaseErrorLine(error)}`))
    .finally(() => pending.delete(running));
  pending.add(running);
}

/** Resolves once every mail handed to `sendMailLater` (or work to `afterResponse`) so far has been sent or has failed. */
export async function mailSettled(): Promise<void> {
  while (pending.size) await Promise.all([...pending]);
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
