-- Rows an import leaves out on purpose (an account disabled where the file came from), counted apart from errors.
ALTER TABLE "imports" ADD COLUMN IF NOT EXISTS "skipped_rows" integer DEFAULT 0 NOT NULL;
