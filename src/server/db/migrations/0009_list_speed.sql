-- List calls at 100,000 scan groups (bench/README.md, api-lists): indexes for search, for the studies'
-- slide filters, and for the table versions the list count cache checks (src/server/lists/count-cache.ts).
--
-- pg_trgm is in PostgreSQL's contrib (a trusted extension since 13) and ships with PGlite as
-- @electric-sql/pglite/contrib/pg_trgm (loaded by src/server/db/client.ts), so this one migration runs on
-- both. Its GIN indexes answer `ILIKE '%…%'` (search, study name) exactly: the index is lossy and
-- PostgreSQL rechecks every candidate row, so the answers are those of a scan.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scan_groups_simple_id_trgm" ON "scan_groups" USING gin ("simple_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scan_groups_name_trgm" ON "scan_groups" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scan_groups_notes_trgm" ON "scan_groups" USING gin ("notes" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "studies_name_trgm" ON "studies" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
-- Studies by slide: `scan_group_ids && ARRAY(SELECT id::text FROM scan_groups WHERE …)`.
CREATE INDEX IF NOT EXISTS "studies_scan_group_ids_gin" ON "studies" USING gin ("scan_group_ids");--> statement-breakpoint
-- max(change_seq) as one index probe: the version of a table the count cache compares.
CREATE INDEX IF NOT EXISTS "scan_groups_change_seq_idx" ON "scan_groups" USING btree ("change_seq");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "studies_change_seq_idx" ON "studies" USING btree ("change_seq");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tombstones_kind_change_seq_idx" ON "tombstones" USING btree ("kind", "change_seq");
