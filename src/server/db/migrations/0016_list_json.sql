-- Each scan group's and study's list JSON, kept by PostgreSQL as a STORED generated column, so a list
-- page is the string_agg of ten stored texts instead of ten objects built on every request
-- (lists/page-statement.ts). Building them was ~40 % of PostgreSQL's work per list statement: member
-- scan-groups default, PostgreSQL CPU per statement 0.54 → 0.38 ms (bench/README.md, api-lists).
--
-- The objects are what toScanGroup and toStudy (the repositories) answer, key for key and in their
-- order; tests/api/list-json.test.ts holds the two equal for every row of a fixture. When an entity's
-- list shape changes, a new migration replaces the function AND drops and re-adds the column: a
-- stored generated value is recomputed only when its row is written, not when its function changes.
-- Not declared in the Drizzle schema (as reader_keys, 0013), so no select of the app reads it.
--
-- IMMUTABLE is true of these functions: the timestamps are written in UTC with a fixed pattern that has
-- no locale-dependent field (as JavaScript's toISOString writes them, milliseconds truncated).
CREATE OR REPLACE FUNCTION iso_ms(ts timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION scan_group_list_json(
  id uuid, created_at timestamptz, updated_at timestamptz, creator_user_id uuid, organization_id uuid,
  status text, simple_id text, name text, notes text, lis_info jsonb, organ_id uuid, animal text,
  tags text[], storage_status text, archive_at timestamptz, storage_history jsonb,
  last_upload_date timestamptz, assignee_user_ids text[], assignee_org_ids text[], inherited_assignees jsonb
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT row_to_json(j)::text FROM (SELECT
    id AS "id", iso_ms(created_at) AS "createdAt", iso_ms(updated_at) AS "updatedAt",
    creator_user_id AS "creatorUserId", organization_id AS "organizationId", status AS "status",
    simple_id AS "simpleId", name AS "name", notes AS "notes", lis_info AS "LISInfo", organ_id AS "organId",
    animal AS "animal", tags AS "tags", storage_status AS "storageStatus", iso_ms(archive_at) AS "archiveAt",
    storage_history AS "storageHistory", iso_ms(last_upload_date) AS "lastUploadDate",
    assignee_user_ids AS "assigneeUserIds", assignee_org_ids AS "assigneeOrgIds",
    inherited_assignees AS "inheritedAssignees"
  ) j
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION study_list_json(
  id uuid, name text, tags text[], scan_group_ids text[], organization_id uuid, status text,
  creator_user_id uuid, assignee_user_ids text[], assignee_org_ids text[], inherited_assignees jsonb,
  created_at timestamptz, updated_at timestamptz, viewer_options jsonb
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT row_to_json(j)::text FROM (SELECT
    id AS "id", name AS "name", tags AS "tags", scan_group_ids AS "scanGroupIds",
    organization_id AS "organizationId", status AS "status", creator_user_id AS "creatorUserId",
    assignee_user_ids AS "assigneeUserIds", assignee_org_ids AS "assigneeOrgIds",
    inherited_assignees AS "inheritedAssignees", iso_ms(created_at) AS "createdAt",
    iso_ms(updated_at) AS "updatedAt", viewer_options AS "viewerOptions"
  ) j
$$;--> statement-breakpoint
ALTER TABLE "scan_groups" ADD COLUMN IF NOT EXISTS "list_json" text GENERATED ALWAYS AS (scan_group_list_json(
  "id", "created_at", "updated_at", "creator_user_id", "organization_id", "status", "simple_id", "name",
  "notes", "lis_info", "organ_id", "animal", "tags", "storage_status", "archive_at", "storage_history",
  "last_upload_date", "assignee_user_ids", "assignee_org_ids", "inherited_assignees"
)) STORED;--> statement-breakpoint
ALTER TABLE "studies" ADD COLUMN IF NOT EXISTS "list_json" text GENERATED ALWAYS AS (study_list_json(
  "id", "name", "tags", "scan_group_ids", "organization_id", "status", "creator_user_id",
  "assignee_user_ids", "assignee_org_ids", "inherited_assignees", "created_at", "updated_at", "viewer_options"
)) STORED;
