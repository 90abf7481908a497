-- Who a person reports to (docs/decisions/028-card-fields-and-visibility.md): set by administrators, an import or SCIM.
ALTER TABLE "profiles" ADD COLUMN "manager_id" uuid;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_manager_id_profiles_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_manager_not_self" CHECK ("manager_id" IS NULL OR "manager_id" <> "id");--> statement-breakpoint
CREATE INDEX "profiles_manager_idx" ON "profiles" USING btree ("manager_id");
