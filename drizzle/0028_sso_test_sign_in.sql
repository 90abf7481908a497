-- A test sign-in an administrator starts from the single sign-on screen: the pending sign-in names them,
-- and its answer is shown to them instead of making, linking or signing in anyone
-- (docs/decisions/030-single-sign-on.md).
ALTER TABLE "sso_logins" ADD COLUMN IF NOT EXISTS "test_by" text REFERENCES "users"("id") ON DELETE CASCADE;
