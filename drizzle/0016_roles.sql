-- Administrators are a role kept with the account, given and taken by administrators
-- (the addresses in ADMIN_EMAILS stay administrators whatever it says), and each
-- account remembers when it last started a session, whichever way it signed in.
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'member' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('admin', 'member'));--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp with time zone;
