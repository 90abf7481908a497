-- Values of a file's office, department and brand columns the administrator merged before importing ("Tokyo Office" as "Tokyo").
ALTER TABLE "imports" ADD COLUMN IF NOT EXISTS "merged_values" jsonb DEFAULT '{}'::jsonb NOT NULL;
