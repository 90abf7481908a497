ALTER TABLE "profile_views" ADD COLUMN "network_hash" text;--> statement-breakpoint
CREATE INDEX "profile_views_network_idx" ON "profile_views" USING btree ("profile_id","network_hash","created_at");