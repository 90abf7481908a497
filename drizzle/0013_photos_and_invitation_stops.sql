-- An uploaded photo is answered only while a card that shows it is active: looked up by its key.
CREATE INDEX IF NOT EXISTS "profiles_photo_idx" ON "profiles" USING btree ("profile_photo");--> statement-breakpoint
-- A person may ask for no more invitations, from a link in each invitation mail.
ALTER TABLE "invitations" ADD COLUMN "stopped_at" timestamp with time zone;
