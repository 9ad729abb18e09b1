-- The study-name filter (strpos of the lower-cased name, studies/list-sql.ts) tests every tuple of the
-- updated-at index it walks until a page is full: ~1,400 for a member's 25 in the api-lists bench. Most
-- of that test was lower() of each name. With the lower-cased name stored (a generated column, kept by
-- PostgreSQL) and carried by the index instead of the name, the walk compares stored texts: member
-- studies name, PostgreSQL CPU per statement 0.78 → 0.47 ms (bench/README.md, api-lists). The
-- organization index carries it too, for a name filter within organizations.
-- Not declared in the Drizzle schema (as reader_keys, 0013), so no select of the app reads it.
-- The name's trigram index (0009) served the ILIKE filter this replaced in 0015's time; nothing reads it.
-- Idempotent: the migrate-vacuum test applies the last migration twice.
ALTER TABLE "studies" ADD COLUMN IF NOT EXISTS "name_lower" text GENERATED ALWAYS AS (lower("name")) STORED;--> statement-breakpoint
DROP INDEX IF EXISTS "studies_updated_desc_idx";--> statement-breakpoint
CREATE INDEX "studies_updated_desc_idx" ON "studies" USING btree ("updated_at" DESC NULLS LAST,"id" DESC NULLS FIRST) INCLUDE ("organization_id","reader_keys","name_lower");--> statement-breakpoint
DROP INDEX IF EXISTS "studies_org_created_desc_idx";--> statement-breakpoint
CREATE INDEX "studies_org_created_desc_idx" ON "studies" USING btree ("organization_id","created_at" DESC NULLS LAST,"id" DESC NULLS FIRST) INCLUDE ("updated_at","name","name_lower");--> statement-breakpoint
DROP INDEX IF EXISTS "studies_name_trgm";
