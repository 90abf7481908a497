-- How many times an account has signed in: a first sign-in is welcomed as one.
ALTER TABLE "users" ADD COLUMN "sign_in_count" integer DEFAULT 0 NOT NULL;
