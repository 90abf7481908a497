-- A provider's recent sign-ins that ended without a session, shown to its administrators with what to
-- change (docs/decisions/030-single-sign-on.md).
CREATE TABLE IF NOT EXISTS "sso_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_id" uuid NOT NULL,
	"code" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_failures_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sso_failures_provider_idx" ON "sso_failures" USING btree ("provider_id","created_at");
