-- A member's default lists (no filter but the read scope, in the default order) walk the order's index
-- and test the scope on each row until the page is full (~200–1,000 rows for pages 1–5 in the api-lists
-- bench, bench/README.md). With organization_id and reader_keys (0013) in the index, the page's ids are
-- picked by an index-only scan and only the page's rows are read from the table (lists/page-statement.ts,
-- EXPLAIN of page 3: 0.65–0.72 → 0.23–0.35 ms). Same names and keys as before; Drizzle's index builder
-- has no INCLUDE, so the schema declares these indexes without it.
DROP INDEX IF EXISTS "scan_groups_created_desc_idx";--> statement-breakpoint
CREATE INDEX "scan_groups_created_desc_idx" ON "scan_groups" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS FIRST) INCLUDE ("organization_id","reader_keys");--> statement-breakpoint
DROP INDEX IF EXISTS "studies_updated_desc_idx";--> statement-breakpoint
CREATE INDEX "studies_updated_desc_idx" ON "studies" USING btree ("updated_at" DESC NULLS LAST,"id" DESC NULLS FIRST) INCLUDE ("organization_id","reader_keys");
