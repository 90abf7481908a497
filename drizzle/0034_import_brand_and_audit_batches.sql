-- The brand an import puts every row into, when the administrator chose one (none: each row's own, or its domain's).
ALTER TABLE "imports" ADD COLUMN IF NOT EXISTS "brand_id" integer REFERENCES "brands"("id") ON DELETE SET NULL;
--> statement-breakpoint
-- The entries one bulk action wrote, one per card: the audit log shows them as one row that opens to its cards.
ALTER TABLE "audit_log" ADD COLUMN IF NOT EXISTS "batch_id" uuid;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_batch_idx" ON "audit_log" ("batch_id") WHERE "batch_id" IS NOT NULL;
