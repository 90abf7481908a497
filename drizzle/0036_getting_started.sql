-- When the first administrator finished or hid the getting-started list; a site saved before it counts as set up.
ALTER TABLE "site_settings" ADD COLUMN IF NOT EXISTS "setup_finished_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "site_settings" SET "setup_finished_at" = now() WHERE "setup_finished_at" IS NULL;
