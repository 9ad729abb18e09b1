-- The caller's stamp (http/authenticate.ts) and a list's table version (lists/count-cache.ts) as
-- functions, so that a list statement PostgreSQL plans afresh for each request (the slide search: a
-- plan made without the pattern would walk the created-at index, 1.3 s for a rare one) plans only its
-- page. Written inline, the two subqueries were two thirds of that planning (0.28 of 0.30 ms less
-- 0.11): a PL/pgSQL function keeps the plans of its own statements for the connection's life.
-- Search statement, PostgreSQL CPU 0.47 → 0.25 ms; the statements that keep a generic plan cost the
-- same as before (bench/README.md, api-lists, session 8).
--
-- STABLE: their statements read with the calling statement's snapshot, so the version is still read
-- in the page's own snapshot, as the count cache needs.
-- The stamp finds the teams below the caller's organization as `parent_ids @> ARRAY[id]`, which the
-- new GIN index answers: before, `id = ANY(parent_ids)` read every organization on every request.
-- Idempotent: the migrate-vacuum test applies the last migration twice.
CREATE INDEX IF NOT EXISTS "organizations_parent_ids_gin" ON "organizations" USING gin ("parent_ids");--> statement-breakpoint
CREATE OR REPLACE FUNCTION actor_stamp(for_user uuid) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  -- The user's row, its organization's row and the organization's teams: what an actor is built from.
  RETURN (
    SELECT u.change_seq || '|' || o.change_seq || '|' || array_to_string(ARRAY(
      SELECT c.id::text FROM organizations c WHERE c.parent_ids @> ARRAY[o.id::text]
      ORDER BY c.id::text COLLATE "C"), ',')
    FROM users u JOIN organizations o ON o.id = u.organization_id WHERE u.id = for_user
  );
END
$$;--> statement-breakpoint
-- The highest change sequence number among a list's rows and their tombstones; 0 when there are none.
-- One branch per tombstone kind a list is versioned by (static statements, so their plans are kept).
CREATE OR REPLACE FUNCTION list_version(for_kind text) RETURNS bigint LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF for_kind = 'scan-groups' THEN
    RETURN coalesce(greatest(
      (SELECT max(change_seq) FROM scan_groups),
      (SELECT max(change_seq) FROM tombstones WHERE kind = 'scan-groups')), 0);
  ELSIF for_kind = 'studies' THEN
    RETURN coalesce(greatest(
      (SELECT max(change_seq) FROM studies),
      (SELECT max(change_seq) FROM tombstones WHERE kind = 'studies')), 0);
  END IF;
  RAISE EXCEPTION 'list_version: no list is versioned by kind %', for_kind;
END
$$;
