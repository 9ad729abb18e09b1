-- The sync feed's cursor must never move past a change sequence number that a transaction still in
-- flight holds: sequences are handed out at write time, so a transaction can take 100, another take
-- 101 and commit first, and a reader that advanced to 101 would never see 100 (docs/api.md, Sync).
--
-- Each writing transaction publishes the first number it takes (its lowest; later ones are higher) as
-- a transaction-level advisory lock, which other sessions see at once in pg_locks and which goes away
-- when the transaction ends, even on error. A 'pending' lock keyed by the backend pid is taken first,
-- so a reader can tell a writer that has taken a number but not yet published it, and wait those
-- microseconds. change_seq_floor() answers the exclusive upper bound the feed may hand out: the lowest
-- published number of any other transaction in flight, else one past the last number taken. On
-- PGlite (one backend, transactions one after another) it is simply one past the last number.
--
-- Lock keys: pending = (7271, pid) (two-int form); published = (7272 << 40) + seq (bigint form).
CREATE OR REPLACE FUNCTION bump_change_seq() RETURNS trigger AS $$
DECLARE
  v bigint;
BEGIN
  IF coalesce(current_setting('tessera.change_seq_held', true), '') <> 'on' THEN
    PERFORM pg_advisory_xact_lock_shared(7271, pg_backend_pid());
    v := nextval('change_seq');
    PERFORM pg_advisory_xact_lock_shared((7272::bigint << 40) + v);
    PERFORM set_config('tessera.change_seq_held', 'on', true);
  ELSE
    v := nextval('change_seq');
  END IF;
  NEW.change_seq := v;
  IF TG_OP = 'UPDATE' THEN
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Tombstones took their number from the column default alone; they go through the same trigger now.
CREATE TRIGGER tombstones_change_seq BEFORE INSERT ON "tombstones" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE OR REPLACE FUNCTION change_seq_floor() RETURNS bigint AS $$
DECLARE
  last_taken bigint;
  called boolean;
  pending integer;
  lowest bigint;
  tries integer := 0;
BEGIN
  LOOP
    -- Read the sequence first: a writer not yet in pg_locks below takes a number above it.
    SELECT last_value, is_called INTO last_taken, called FROM change_seq;
    IF NOT called THEN
      last_taken := last_taken - 1;
    END IF;
    WITH l AS MATERIALIZED (
      SELECT pid, classid, objid, objsubid FROM pg_locks
      WHERE locktype = 'advisory' AND pid IS DISTINCT FROM pg_backend_pid()
    ),
    p AS (SELECT DISTINCT pid FROM l WHERE objsubid = 2 AND classid = 7271),
    s AS (
      SELECT pid, ((classid::bigint << 32) | objid::bigint) - (7272::bigint << 40) AS seq
      FROM l WHERE objsubid = 1 AND (classid::bigint >> 8) = 7272
    )
    SELECT count(*) FILTER (WHERE s.pid IS NULL), min(s.seq) INTO pending, lowest
    FROM p LEFT JOIN s ON s.pid = p.pid;
    IF pending = 0 THEN
      RETURN least(coalesce(lowest, last_taken + 1), last_taken + 1);
    END IF;
    tries := tries + 1;
    IF tries > 4000 THEN
      RAISE EXCEPTION 'the change feed is busy, try again';
    END IF;
    PERFORM pg_sleep(0.0005);
  END LOOP;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Review groups: a changed visibility changes who may read a review, so its group row moves too (the
-- feed serves per-caller counts, src/server/reviews/sync.ts). Otherwise as in 0003.
CREATE OR REPLACE FUNCTION review_groups_apply() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = NEW.status AND OLD.review_group_uuid = NEW.review_group_uuid
     AND OLD.reviewer_id IS NOT DISTINCT FROM NEW.reviewer_id AND OLD.visibility = NEW.visibility
     AND OLD.assignee_user_ids = NEW.assignee_user_ids AND OLD.assignee_org_ids = NEW.assignee_org_ids THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE review_groups SET
      total = total - 1,
      completed = completed - (OLD.status = 'completed')::int,
      accepted = accepted - (OLD.status = 'accepted')::int,
      rejected = rejected - (OLD.status = 'rejected')::int,
      flagged = flagged - (OLD.status = 'flagged')::int,
      pending = pending - (OLD.status = 'pending')::int
    WHERE id = OLD.review_group_uuid;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO review_groups AS g (id, organization_id, creator_user_id, member_user_ids, member_org_ids,
      total, completed, accepted, rejected, flagged, pending, created_at)
    VALUES (NEW.review_group_uuid, NEW.organization_id, NEW.creator_user_id,
      array_remove(ARRAY[NEW.reviewer_id::text], NULL) || NEW.assignee_user_ids, NEW.assignee_org_ids, 1,
      (NEW.status = 'completed')::int, (NEW.status = 'accepted')::int, (NEW.status = 'rejected')::int,
      (NEW.status = 'flagged')::int, (NEW.status = 'pending')::int, NEW.created_at)
    ON CONFLICT (id) DO UPDATE SET
      total = g.total + 1,
      completed = g.completed + EXCLUDED.completed,
      accepted = g.accepted + EXCLUDED.accepted,
      rejected = g.rejected + EXCLUDED.rejected,
      flagged = g.flagged + EXCLUDED.flagged,
      pending = g.pending + EXCLUDED.pending,
      member_user_ids = ARRAY(SELECT DISTINCT m FROM unnest(g.member_user_ids || EXCLUDED.member_user_ids) m),
      member_org_ids = ARRAY(SELECT DISTINCT m FROM unnest(g.member_org_ids || EXCLUDED.member_org_ids) m);
  END IF;
  IF TG_OP = 'DELETE' OR OLD.review_group_uuid <> NEW.review_group_uuid THEN
    DELETE FROM review_groups WHERE id = OLD.review_group_uuid AND total <= 0;
    IF FOUND THEN
      INSERT INTO tombstones (kind, id) VALUES ('review-groups', OLD.review_group_uuid);
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
