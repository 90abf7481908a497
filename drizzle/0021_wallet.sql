-- Wallet passes (docs/decisions/033-card-everywhere.md): the company's Google Wallet issuer and
-- service account. The account's key is sealed with the server's secret, never stored in the clear.
CREATE TABLE "wallet_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"google_issuer_id" text,
	"google_client_email" text,
	"google_service_account" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_settings_single_row" CHECK ("id" = 1)
);
