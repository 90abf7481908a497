-- A card's details beyond name, title, phone, bio and LinkedIn (docs/decisions/028-card-fields-and-visibility.md).
ALTER TABLE "profiles" ADD COLUMN "department" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "office" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "pronouns" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "languages" text;--> statement-breakpoint
-- Up to ten links beyond LinkedIn: [{ "kind": "github", "url": "https://…" }, …].
ALTER TABLE "profiles" ADD COLUMN "links" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Who sees each detail: the visibilities a member chose, and those in effect once the company's policies apply.
ALTER TABLE "profiles" ADD COLUMN "visibility_choices" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "field_visibility" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- What administrators decided per field: { "phone": { "visibility": "colleagues", "locked": false }, … }; null means the defaults.
ALTER TABLE "site_settings" ADD COLUMN "field_policies" jsonb;--> statement-breakpoint
-- The directory searches what a colleague may see: a detail its owner keeps to themselves is not matched.
CREATE OR REPLACE FUNCTION namecard_search_text(
  first_name text, last_name text, email text, username text, title text, bio text,
  department text, office text, visibility jsonb
) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT namecard_fold(concat_ws(' ', first_name, last_name,
    CASE WHEN visibility->>'email' = 'private' THEN NULL ELSE email END,
    username, title,
    CASE WHEN visibility->>'bio' = 'private' THEN NULL ELSE bio END,
    department, office)) $$;--> statement-breakpoint
DROP INDEX IF EXISTS "profiles_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "profiles" DROP COLUMN "search_text";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "search_text" text GENERATED ALWAYS AS (namecard_search_text(first_name, last_name, email, username, title, bio, department, office, field_visibility)) STORED;--> statement-breakpoint
CREATE INDEX "profiles_search_trgm_idx" ON "profiles" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The directory's facets: people per department and per office.
CREATE INDEX "profiles_department_idx" ON "profiles" USING btree ("department");--> statement-breakpoint
CREATE INDEX "profiles_office_idx" ON "profiles" USING btree ("office");
