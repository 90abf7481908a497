-- The stems of usernames (a name without its trailing number), indexed: giving a new card a free
-- username looks up the stems of its name, which read every card before and made a large import
-- slow down as the directory grew.
CREATE INDEX IF NOT EXISTS "profiles_username_stem_idx" ON "profiles" USING btree (regexp_replace(lower("username"), '[0-9]+$', ''));
