-- The language a visitor's lead form was shown in: the contact card they asked for is mailed in it.
ALTER TABLE "leads" ADD COLUMN IF NOT EXISTS "locale" text DEFAULT 'en' NOT NULL;
