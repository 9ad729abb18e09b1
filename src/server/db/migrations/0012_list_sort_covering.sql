-- An organization's rows in a created-at window, sorted by another column (bench/README.md, api-lists):
-- the list statement picks the page's ids first (lists/page-statement.ts), and with the other sort
-- keys stored in the index that pick is an index-only scan; only the page's rows are then read from
-- the table instead of every row of the window (~240 scattered heap pages for 25 rows).
-- Drizzle's index builder has no INCLUDE, so the schema declares these indexes without it.
DROP INDEX IF EXISTS "scan_groups_org_created_desc_idx";--> statement-breakpoint
CREATE INDEX "scan_groups_org_created_desc_idx" ON "scan_groups" USING btree ("organization_id","created_at" DESC NULLS LAST,"id" DESC NULLS FIRST) INCLUDE ("simple_id","name");--> statement-breakpoint
DROP INDEX IF EXISTS "studies_org_created_desc_idx";--> statement-breakpoint
CREATE INDEX "studies_org_created_desc_idx" ON "studies" USING btree ("organization_id","created_at" DESC NULLS LAST,"id" DESC NULLS FIRST) INCLUDE ("updated_at","name");
