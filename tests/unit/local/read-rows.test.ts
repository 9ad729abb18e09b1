// readRows reads a whole list in one go (getAll, the filter applied to the array) and a limited one
// with a cursor that stops early: both must give the same rows in the same order, hidden rows left out.
import { describe, expect, it } from 'vitest';
import type { Study } from '../../../src/api/entities';
import { readRows, type ReadOptions } from '../../../src/local/read';
import { freshDb, studyRow } from './harness';

/** s1…s9: odd ones tagged 'odd', updatedAt ordered by n. */
const study = (n: number) =>
  studyRow(`s${n}`, {
    tags: n % 2 ? ['odd'] : [],
    updatedAt: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
  });

const odd = (r: Record<string, unknown>) => Array.isArray(r.tags) && r.tags.includes('odd');

// [options, ids expected] over s1…s9 with s4 hidden (a pending delete) and s7 hidden.
const CASES: Array<[string, ReadOptions, string[]]> = [
  ['all, by id', {}, ['s1', 's2', 's3', 's5', 's6', 's8', 's9']],
  ['newest first', { orderBy: 'updatedAt', reverse: true }, ['s9', 's8', 's6', 's5', 's3', 's2', 's1']],
  [
    'newest first, offset 2',
    { orderBy: 'updatedAt', reverse: true, offset: 2 },
    ['s6', 's5', 's3', 's2', 's1'],
  ],
  ['filtered, newest first', { orderBy: 'updatedAt', reverse: true, where: odd }, ['s9', 's5', 's3', 's1']],
  ['filtered, offset 1', { orderBy: 'updatedAt', where: odd, offset: 1 }, ['s3', 's5', 's9']],
  ['limited (cursor)', { orderBy: 'updatedAt', reverse: true, limit: 3 }, ['s9', 's8', 's6']],
  ['filtered, offset, limited', { orderBy: 'updatedAt', where: odd, offset: 1, limit: 2 }, ['s3', 's5']],
];

describe('readRows', () => {
  it.each(CASES)('%s', async (_name, opts, expected) => {
    const db = freshDb();
    await db.studies.bulkPut(
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) =>
        n === 4 || n === 7 ? { ...study(n), $hidden: 1, $base: study(n) } : study(n),
      ),
    );
    expect((await readRows<Study>(db, 'studies', opts)).map((r) => r.id)).toEqual(expected);
  });
});
