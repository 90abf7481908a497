-- The mail queue records each mail's Message-ID before its first send and reuses it on every later one: a
-- job taken over from a process that died is found in the outbox instead of written twice, or sent again
-- through SMTP under the same ID (docs/decisions/021-invitations-and-the-mail-queue.md).
ALTER TABLE "mail_jobs" ADD COLUMN IF NOT EXISTS "message_id" text;
