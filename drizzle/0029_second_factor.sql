-- A second factor for password sign-ins (docs/decisions/043-a-second-factor.md): an authenticator app with
-- recovery codes, passkeys, whether a session's sign-in rested on more than a password, and who must use one.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "two_factor_enabled" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "second_factor" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "two_factors" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"secret" text NOT NULL,
	"backup_codes" text NOT NULL,
	"verified" boolean DEFAULT true NOT NULL,
	"failed_verification_count" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "two_factors_user_id_key" ON "two_factors" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "passkeys" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text,
	"public_key" text NOT NULL,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"credential_id" text NOT NULL,
	"counter" integer NOT NULL,
	"device_type" text NOT NULL,
	"backed_up" boolean NOT NULL,
	"transports" text,
	"aaguid" text,
	"created_at" timestamp with time zone DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "passkeys_user_id_idx" ON "passkeys" USING btree ("user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "passkeys_credential_id_key" ON "passkeys" USING btree ("credential_id");
--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN IF NOT EXISTS "second_factor_rule" text;
--> statement-breakpoint
ALTER TABLE "site_settings" DROP CONSTRAINT IF EXISTS "site_settings_second_factor_rule";
--> statement-breakpoint
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_second_factor_rule" CHECK ("second_factor_rule" IN ('admins', 'everyone'));
--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN IF NOT EXISTS "required_since" timestamp with time zone;
--> statement-breakpoint
UPDATE "identity_providers" SET "required_since" = now() WHERE "require_sso" AND "required_since" IS NULL;
