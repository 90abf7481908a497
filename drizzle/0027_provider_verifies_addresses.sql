-- Whether an administrator says a provider verifies the addresses of its domains: an account that exists
-- already is then linked at a first sign-in without the provider's email_verified. Providers saved before
-- keep linking as they did (docs/decisions/030-single-sign-on.md).
ALTER TABLE "identity_providers" ADD COLUMN IF NOT EXISTS "verifies_addresses" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "identity_providers" SET "verifies_addresses" = true;
