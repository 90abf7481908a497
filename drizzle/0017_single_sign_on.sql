-- A company's identity providers, the domains each signs in, the identities they vouch
-- for (keyed by issuer and subject, never by an address) and the sign-ins on their way
-- (docs/decisions/030-single-sign-on.md).
CREATE TABLE "identity_providers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"protocol" text DEFAULT 'oidc' NOT NULL,
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"authorization_origin" text NOT NULL,
	"require_sso" boolean DEFAULT false NOT NULL,
	"refresh_card" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_providers_protocol_check" CHECK ("identity_providers"."protocol" in ('oidc'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "identity_providers_issuer_key" ON "identity_providers" USING btree ("issuer");--> statement-breakpoint
CREATE TABLE "identity_provider_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"provider_id" uuid NOT NULL REFERENCES "identity_providers"("id") ON DELETE cascade
);--> statement-breakpoint
CREATE TABLE "sso_identities" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_identities_issuer_subject_pk" PRIMARY KEY("issuer","subject")
);--> statement-breakpoint
CREATE INDEX "sso_identities_user_idx" ON "sso_identities" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "sso_logins" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"provider_id" uuid NOT NULL REFERENCES "identity_providers"("id") ON DELETE cascade,
	"browser_hash" text NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"redirect_to" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
