-- An uploaded photo is answered only while a card that shows it is active: looked up by its key.
CREATE INDEX IF NOT EXISTS "profiles_photo_idx" ON "profiles" USING btree ("profile_photo");--> statement-breakpoint
-- A person may ask for no more invitations, from a link in each invitation mail.
ALTER TABLE "invitations" ADD COLUMN "stopped_at" timestamp with time zone;--> statement-breakpoint
-- Old usernames expire, and a deleted card's names stay reserved for a while instead of going with it.
ALTER TABLE "username_redirects" ALTER COLUMN "profile_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "username_redirects" DROP CONSTRAINT "username_redirects_profile_id_profiles_id_fk";--> statement-breakpoint
ALTER TABLE "username_redirects" ADD CONSTRAINT "username_redirects_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "username_redirects" ADD COLUMN "expires_at" timestamp with time zone DEFAULT now() + interval '365 days' NOT NULL;
