CREATE TABLE "username_redirects" (
	"username" text PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "username_redirects_lower_case" CHECK ("username_redirects"."username" = lower("username_redirects"."username"))
);
--> statement-breakpoint
ALTER TABLE "username_redirects" ADD CONSTRAINT "username_redirects_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "username_redirects_profile_idx" ON "username_redirects" USING btree ("profile_id");