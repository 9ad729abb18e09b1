-- Sessions that end at once, and rate limits counted atomically (docs/security.md):
-- sessions: one row per refresh-token family; access tokens name it and are refused once it has ended.
-- rate_counters: one fixed-window counter per key, bumped by a single UPSERT … RETURNING count, so
-- concurrent sign-in attempts cannot all read the same old count; it replaces login_failures.
-- refresh_tokens.successor: the pair a token was exchanged for, sealed with that token's own secret,
-- answered again to a second tab within the reuse grace window.
-- Every statement may run again on a database that has it (a start that re-applies the last migration).
CREATE TABLE IF NOT EXISTS "rate_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN IF NOT EXISTS "successor" text;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
-- Live refresh-token families become sessions, so nobody signed in is signed out by the upgrade.
INSERT INTO "sessions" ("id", "user_id", "created_at")
SELECT "family_id", min("user_id"::text)::uuid, min("created_at") FROM "refresh_tokens"
WHERE "revoked_at" IS NULL AND "expires_at" > now()
GROUP BY "family_id"
ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
DROP TABLE IF EXISTS "login_failures" CASCADE;
