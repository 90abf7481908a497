-- SAML 2.0 providers beside OpenID Connect ones (docs/decisions/030-single-sign-on.md):
-- a SAML provider has a sign-in URL and signing certificates (sealed like a client
-- secret) instead of a client; a sign-in it answers waits, checked, for the browser
-- that started it; and each assertion it sends is used once.
ALTER TABLE "identity_providers" DROP CONSTRAINT "identity_providers_protocol_check";--> statement-breakpoint
ALTER TABLE "identity_providers" ALTER COLUMN "client_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_providers" ALTER COLUMN "client_secret" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "sso_url" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "certificates" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "idp_initiated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD CONSTRAINT "identity_providers_protocol_check" CHECK (
	("protocol" = 'oidc' AND "client_id" IS NOT NULL AND "client_secret" IS NOT NULL)
	OR ("protocol" = 'saml' AND "sso_url" IS NOT NULL AND "certificates" IS NOT NULL)
);--> statement-breakpoint
ALTER TABLE "sso_logins" ALTER COLUMN "code_verifier" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_logins" ALTER COLUMN "nonce" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_logins" ADD COLUMN "claims" jsonb;--> statement-breakpoint
CREATE TABLE "saml_assertions" (
	"provider_id" uuid NOT NULL REFERENCES "identity_providers"("id") ON DELETE cascade,
	"assertion_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_assertions_provider_id_assertion_id_pk" PRIMARY KEY("provider_id","assertion_id")
);--> statement-breakpoint
-- Expired rows are deleted at each answer or sign-in: found by their end.
CREATE INDEX "saml_assertions_expires_idx" ON "saml_assertions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sso_logins_expires_idx" ON "sso_logins" USING btree ("expires_at");
