-- Leads (docs/decisions/034-leads.md): the details a visitor shares back from a card, with the
-- consent they gave, kept for the company's retention period.
CREATE TABLE "leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"company" text,
	"title" text,
	"message" text,
	"owner_note" text,
	"source" text NOT NULL,
	"consent_version" integer NOT NULL,
	"consent_text" text NOT NULL,
	"wants_card" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "leads_source" CHECK ("source" IN ('card', 'qr')),
	CONSTRAINT "leads_reachable" CHECK ("email" IS NOT NULL OR "phone" IS NOT NULL)
);
--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "leads_profile_created_idx" ON "leads" USING btree ("profile_id", "created_at");
--> statement-breakpoint
CREATE INDEX "leads_created_idx" ON "leads" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "leads_expires_idx" ON "leads" USING btree ("expires_at");
--> statement-breakpoint
CREATE INDEX "leads_email_idx" ON "leads" USING btree (lower("email"));
--> statement-breakpoint
-- A lead's mails (to the card's owner, and the card to the visitor who asked) go with it when it is deleted.
ALTER TABLE "mail_jobs" ADD COLUMN "lead_id" uuid;
--> statement-breakpoint
ALTER TABLE "mail_jobs" ADD CONSTRAINT "mail_jobs_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "mail_jobs_lead_idx" ON "mail_jobs" USING btree ("lead_id");
--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "lead_retention_months" integer;
--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "admins_see_leads" boolean;
--> statement-breakpoint
-- Contact files saved and wallet passes added, counted per card and day.
CREATE TABLE "card_saves" (
	"profile_id" uuid NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "card_saves_pk" PRIMARY KEY ("profile_id", "day", "kind"),
	CONSTRAINT "card_saves_kind" CHECK ("kind" IN ('contact', 'wallet'))
);
--> statement-breakpoint
ALTER TABLE "card_saves" ADD CONSTRAINT "card_saves_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;
