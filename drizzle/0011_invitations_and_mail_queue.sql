-- Invitations reuse the emailed links: an invitation's link belongs to the card, not to an account
-- (the person may have none yet), so a link names an account, a card, or both.
ALTER TABLE "email_links" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "email_links" ADD COLUMN "profile_id" uuid;--> statement-breakpoint
ALTER TABLE "email_links" ADD CONSTRAINT "email_links_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_links_profile_purpose_key" ON "email_links" USING btree ("profile_id","purpose");--> statement-breakpoint
ALTER TABLE "email_links" ADD CONSTRAINT "email_links_owner" CHECK ("user_id" IS NOT NULL OR "profile_id" IS NOT NULL);--> statement-breakpoint
CREATE TABLE "invitations" (
	"profile_id" uuid PRIMARY KEY NOT NULL,
	"invited_at" timestamp with time zone NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "invitations_reminders_nonnegative" CHECK ("reminders_sent" >= 0)
);--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "mail_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"profile_id" uuid,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_jobs_status" CHECK ("status" IN ('pending', 'sending', 'sent', 'failed'))
);--> statement-breakpoint
ALTER TABLE "mail_jobs" ADD CONSTRAINT "mail_jobs_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_jobs_due_idx" ON "mail_jobs" USING btree ("status","run_at");--> statement-breakpoint
CREATE INDEX "mail_jobs_profile_idx" ON "mail_jobs" USING btree ("profile_id");--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "auto_reminders" boolean;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "reminder_after_days" integer;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "reminder_max_count" integer;
