CREATE TABLE "health_checks" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "health_checks_single_row" CHECK ("health_checks"."id" = 1)
);
