-- Who may make an account (docs/decisions/024-who-can-join.md). Null means the default:
-- the domains of ADMIN_EMAILS.
ALTER TABLE "site_settings" ADD COLUMN "join_rule" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "join_domains" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_join_rule" CHECK ("join_rule" IN ('domains', 'invited', 'anyone'));--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "self_joined" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Cards made at sign-up were claimed in the same statement that created them; cards an
-- administrator prepared were claimed later, when their person signed up or was invited.
UPDATE "profiles" SET "self_joined" = true
WHERE "user_id" IS NOT NULL AND "claimed_at" IS NOT NULL AND "claimed_at" - "created_at" < interval '2 seconds';
