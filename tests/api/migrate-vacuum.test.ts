// A start that applies migrations vacuums the list tables afterwards (db/client.ts): a table-rewriting
// migration leaves them without a visibility map, and the lists' index-only picks need one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-migrate-vacuum-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const vacuums = async (location: string) => {
  const database = await openDatabase(location);
  try {
    const [row] = await database.query<{ n: number }>(
      `SELECT coalesce(sum(vacuum_count), 0)::int AS n FROM pg_stat_user_tables WHERE relname IN ('scan_groups', 'studies')`,
    );
    return { n: Number(row.n), database };
  } catch (error) {
    await database.close();
    throw error;
  }
};

describe('migrations on an existing database', () => {
  it('should vacuum the list tables after applying one, and not on a start with nothing to apply', async () => {
    const first = await vacuums(dir);
    // Forget the last migration, so the next start applies it again (it drops and creates an index).
    await first.database.exec(
      'DELETE FROM drizzle.__drizzle_migrations WHERE id = (SELECT max(id) FROM drizzle.__drizzle_migrations)',
    );
    await first.database.close();

    const upgraded = await vacuums(dir);
    await upgraded.database.close();
    expect(upgraded.n).toBeGreaterThan(0);

    const again = await vacuums(dir);
    await again.database.close();
    expect(again.n).toBe(0);
  });
});
