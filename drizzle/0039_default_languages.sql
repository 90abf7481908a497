-- The language a card speaks to a visitor whose browser asks for none Namecard speaks: its brand's, else the company's.
ALTER TABLE "site_settings" ADD COLUMN IF NOT EXISTS "default_locale" text;
--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN IF NOT EXISTS "default_locale" text;
