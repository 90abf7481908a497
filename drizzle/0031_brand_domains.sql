-- Brand domains (docs/decisions/044-brand-administrators.md): the e-mail domains whose people belong to a
-- brand, each domain at one brand; and the brand people at no brand's domain land in.
CREATE TABLE IF NOT EXISTS "brand_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"brand_id" integer NOT NULL REFERENCES "brands"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "brand_domains_brand_id_idx" ON "brand_domains" USING btree ("brand_id");
--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN IF NOT EXISTS "is_default" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "brands_one_default_key" ON "brands" USING btree ("is_default") WHERE "is_default";
