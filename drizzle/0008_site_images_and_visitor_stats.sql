ALTER TABLE "site_settings" ADD COLUMN "show_stats_to_visitors" boolean;--> statement-breakpoint
-- The site's images are files this site stored, kept as storage keys like a brand's logo
-- (docs/decisions/015-site-images-are-uploads.md): an address of one becomes its key, and
-- anything else (an address elsewhere, which no page may load) is cleared.
UPDATE "site_settings" SET
	"primary_logo" = CASE WHEN "primary_logo" ~ '^(/uploads/)?[a-z]+/[0-9a-f]{16,64}(-[a-z0-9]+)?\.(webp|jpg|png)$' THEN regexp_replace("primary_logo", '^/uploads/', '') END,
	"dark_mode_logo" = CASE WHEN "dark_mode_logo" ~ '^(/uploads/)?[a-z]+/[0-9a-f]{16,64}(-[a-z0-9]+)?\.(webp|jpg|png)$' THEN regexp_replace("dark_mode_logo", '^/uploads/', '') END,
	"favicon" = CASE WHEN "favicon" ~ '^(/uploads/)?[a-z]+/[0-9a-f]{16,64}(-[a-z0-9]+)?\.(webp|jpg|png)$' THEN regexp_replace("favicon", '^/uploads/', '') END,
	"footer_logo" = CASE WHEN "footer_logo" ~ '^(/uploads/)?[a-z]+/[0-9a-f]{16,64}(-[a-z0-9]+)?\.(webp|jpg|png)$' THEN regexp_replace("footer_logo", '^/uploads/', '') END;
