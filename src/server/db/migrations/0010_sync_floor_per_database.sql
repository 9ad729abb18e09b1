-- change_seq_floor() read the advisory locks of every database of the server: a writer in another
-- database (another Tessera, or a test suite's) holding a lower number of its own sequence held this
-- database's sync feed back. Advisory locks belong to one database; only this one's count.
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
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
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
$$ LANGUAGE plpgsql;
