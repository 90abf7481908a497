-- Brands as units of administration (docs/decisions/044-brand-administrators.md): who administers which
-- brand. An account administers a brand's cards, look, imports, analytics and audit entries, nothing else.
CREATE TABLE IF NOT EXISTS "brand_administrators" (
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"brand_id" integer NOT NULL REFERENCES "brands"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("user_id", "brand_id")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "brand_administrators_brand_id_idx" ON "brand_administrators" USING btree ("brand_id");
--> statement-breakpoint
-- Whether the brand's members may move their own card to another brand; off: a card stays where it was put.
ALTER TABLE "brands" ADD COLUMN IF NOT EXISTS "members_change_brand" boolean DEFAULT false NOT NULL;
