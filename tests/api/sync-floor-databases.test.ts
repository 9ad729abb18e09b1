// The sync feed's floor (change_seq_floor, migrations 0008 and 0010) counts only this database's
// writers: a transaction in another database of the same server holding a low number of its own
// sequence must not hold this database's feed back (it did, and other suites' feeds came back empty).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, PG_ADMIN_URL, startApp, type TestApp } from './helpers';

const postgres = (await dbTargets()).find((t) => t.name === 'postgres');

describe.runIf(postgres)('sync floor on postgres, beside another database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(postgres!);
  });
  afterAll(() => t?.close());

  it('ignores a writer holding number 1 in another database', async () => {
    const floor = async () =>
      Number((await t.app.ctx.database.query<{ f: string }>('SELECT change_seq_floor() AS f'))[0].f);
    const free = await floor();
    expect(free).toBeGreaterThan(1); // bootstrap wrote rows

    // What bump_change_seq does in a writer's transaction, in the server's other database.
    const other = new pg.Client({ connectionString: PG_ADMIN_URL });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock_shared(7271, pg_backend_pid())');
      await other.query('SELECT pg_advisory_xact_lock_shared((7272::bigint << 40) + 1)');
      expect(await floor()).toBe(free);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
  });
});
