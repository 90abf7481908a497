-- Provisioning from the company's identity provider (SCIM 2.0, docs/decisions/032-scim-provisioning.md).
-- A connection is one provider's bearer token; only its SHA-256 is kept.
CREATE TABLE "scim_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "scim_connections_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
-- A person as the provider knows them, linked to one card. Their attributes are kept flat, by SCIM path.
CREATE TABLE "scim_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL REFERENCES "scim_connections"("id") ON DELETE cascade,
	"user_name" text NOT NULL,
	"external_id" text,
	"active" boolean DEFAULT true NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"profile_id" uuid REFERENCES "profiles"("id") ON DELETE set null,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_user_name_idx" ON "scim_users" (lower("user_name"));
--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_profile_idx" ON "scim_users" ("profile_id");
--> statement-breakpoint
CREATE INDEX "scim_users_external_id_idx" ON "scim_users" ("connection_id", "external_id");
--> statement-breakpoint
CREATE INDEX "scim_users_listing_idx" ON "scim_users" ("connection_id", "created_at", "id");
--> statement-breakpoint
-- A group of the provider; an administrator may map it to a brand, which its members' cards then carry.
CREATE TABLE "scim_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL REFERENCES "scim_connections"("id") ON DELETE cascade,
	"display_name" text NOT NULL,
	"external_id" text,
	"brand_id" integer REFERENCES "brands"("id") ON DELETE set null,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "scim_groups_name_idx" ON "scim_groups" ("connection_id", lower("display_name"));
--> statement-breakpoint
CREATE TABLE "scim_group_members" (
	"group_id" uuid NOT NULL REFERENCES "scim_groups"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "scim_users"("id") ON DELETE cascade,
	CONSTRAINT "scim_group_members_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "scim_group_members_user_idx" ON "scim_group_members" ("user_id");
--> statement-breakpoint
-- What a connection asked for that was refused, for the administrator; the newest few per connection are kept.
CREATE TABLE "scim_errors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL REFERENCES "scim_connections"("id") ON DELETE cascade,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"detail" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "scim_errors_connection_idx" ON "scim_errors" ("connection_id", "created_at");
