-- Accent- and case-folding for search. unaccent() is only STABLE (its
-- dictionary could change), so it is wrapped in an IMMUTABLE function naming the
-- dictionary explicitly, which lets a generated column and an index use it.
CREATE OR REPLACE FUNCTION namecard_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION namecard_search_text(
  first_name text, last_name text, email text, username text, title text, bio text
) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT namecard_fold(concat_ws(' ', first_name, last_name, email, username, title, bio)) $$;
