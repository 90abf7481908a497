-- An uploaded photo is answered only while a card that shows it is active: looked up by its key.
CREATE INDEX IF NOT EXISTS "profiles_photo_idx" ON "profiles" USING btree ("profile_photo");
