-- A brand's card template: per field, the visibility its new cards start with, whether its members may change the
-- field, and the value every card of the brand holds (docs/decisions/045-brand-templates.md).
ALTER TABLE "brands" ADD COLUMN IF NOT EXISTS "template" jsonb DEFAULT '{}'::jsonb NOT NULL;
