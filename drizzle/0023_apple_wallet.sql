-- Apple Wallet (docs/decisions/033-card-everywhere.md): the company's pass type, team, signing
-- certificate and key (sealed with the server's secret, never stored in the clear) and Apple's
-- WWDR intermediate certificate.
ALTER TABLE "wallet_settings" ADD COLUMN "apple_pass_type_id" text;
--> statement-breakpoint
ALTER TABLE "wallet_settings" ADD COLUMN "apple_team_id" text;
--> statement-breakpoint
ALTER TABLE "wallet_settings" ADD COLUMN "apple_signer" text;
--> statement-breakpoint
ALTER TABLE "wallet_settings" ADD COLUMN "apple_signer_name" text;
--> statement-breakpoint
ALTER TABLE "wallet_settings" ADD COLUMN "apple_signer_expires_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "wallet_settings" ADD COLUMN "apple_wwdr" text;
