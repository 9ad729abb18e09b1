-- A study-name search (`name ILIKE '%…%'`) in the default order walks the updated-at index until the
-- page is full (~1,500 rows for a member's 25 in the api-lists bench). With the name in the index too,
-- that walk tests name and read scope on the index's tuples and reads only the page's rows from the
-- table (lists/page-statement.ts): EXPLAIN 2.7 → 1.1 ms, 1,529 → 123 buffers. Drizzle's index builder
-- has no INCLUDE, so the schema declares this index without it.
DROP INDEX IF EXISTS "studies_updated_desc_idx";--> statement-breakpoint
CREATE INDEX "studies_updated_desc_idx" ON "studies" USING btree ("updated_at" DESC NULLS LAST,"id" DESC NULLS FIRST) INCLUDE ("organization_id","reader_keys","name");
