// readPage restores only one page but counts every passing row; readRowsWhere looks up any of several
// values by index. Both leave hidden rows (pending deletes) out.
import { describe, expect, it } from 'vitest';
import type { Image, Study } from '../../../src/api/entities';
import { readPage, readRows, readRowsWhere } from '../../../src/local/read';
import { freshDb, studyRow } from './harness';

/** s1…s9: odd ones tagged 'odd', updatedAt ordered by n. */
const study = (n: number) =>
  studyRow(`s${n}`, {
    tags: n % 2 ? ['odd'] : [],
    updatedAt: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
  });

async function nineStudies() {
  const db = freshDb();
  await db.studies.bulkPut(
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) =>
      n === 4 ? { ...study(n), $hidden: 1, $base: study(n) } : study(n),
    ),
  );
  return db;
}

describe('readPage', () => {
  it('gives the same page as readRows with offset and limit, and the count of every passing row', async () => {
    const db = await nineStudies();
    const odd = (r: Record<string, unknown>) => Array.isArray(r.tags) && r.tags.includes('odd');
    for (const [offset, limit] of [
      [0, 2],
      [2, 2],
      [4, 10],
    ]) {
      const opts = { orderBy: 'updatedAt', reverse: true, where: odd, offset, limit };
      const page = await readPage<Study>(db, 'studies', opts);
      expect(page.rows.map((r) => r.id)).toEqual(
        (await readRows<Study>(db, 'studies', opts)).map((r) => r.id),
      );
      expect(page.count).toBe(5); // s1 s3 s5 s7 s9
    }
    const all = await readPage<Study>(db, 'studies', { orderBy: 'updatedAt', limit: 3 });
    expect(all.rows.map((r) => r.id)).toEqual(['s1', 's2', 's3']);
    expect(all.count).toBe(8); // s4 is hidden
  });
});

describe('readRowsWhere', () => {
  it('looks up one value or any of several by index', async () => {
    const db = freshDb();
    const image = (id: string, scanGroupId: string, hidden = false) => ({
      id,
      scanGroupId,
      name: `${id}.czi`,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      ...(hidden ? { $hidden: 1 } : {}),
    });
    await db.images.bulkPut([image('i1', 'a'), image('i2', 'b'), image('i3', 'c'), image('i4', 'b', true)]);
    const ids = async (v: string | string[]) =>
      (await readRowsWhere<Image>(db, 'images', 'scanGroupId', v)).map((r) => r.id).sort();
    expect(await ids('b')).toEqual(['i2']);
    expect(await ids(['a', 'b'])).toEqual(['i1', 'i2']);
    expect(await ids([])).toEqual([]);
  });
});
