-- Idempotency keys reserved while their first request runs (docs/security.md): a repeat of a running
-- key answers 409 instead of applying twice. Keys are per user (key, user_id); request_hash tells a
-- replay from a key sent again with another body; completed_at is null while the first request runs.
-- Every statement may run again on a database that has it (a start that re-applies the last migration).
ALTER TABLE "idempotency_keys" DROP CONSTRAINT IF EXISTS "idempotency_keys_pkey";--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT IF EXISTS "idempotency_keys_key_user_id_pk";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_key_user_id_pk" PRIMARY KEY("key","user_id");--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN IF NOT EXISTS "request_hash" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN IF NOT EXISTS "completed_at" timestamp with time zone;--> statement-breakpoint
-- Outcomes stored before keys were reserved are complete.
UPDATE "idempotency_keys" SET "completed_at" = "created_at" WHERE "completed_at" IS NULL AND "request_hash" IS NULL;
