// readPage restores only one page but counts every passing row (without a filter it reads only the
// page, along the sort's index); readRowsWhere looks up any of several values by index. Both leave
// hidden rows (pending deletes) out.
import { describe, expect, it } from 'vitest';
import type { Image, Study } from '../../../src/api/entities';
import { observe, readPage, readRows, readRowsWhere } from '../../../src/local/read';
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

describe('readPage without a filter (read along the index)', () => {
  /** 30 studies, createdAt in 10 ties of 3, names descending; some hidden, one without createdAt. */
  async function thirty(hidden: readonly number[]) {
    const db = freshDb();
    await db.studies.bulkPut(
      Array.from({ length: 30 }, (_, n) => {
        const row = studyRow(`s${String(n).padStart(2, '0')}`, {
          name: `name ${String(99 - n)}`,
          createdAt: `2026-01-01T00:00:${String(Math.floor(n / 3)).padStart(2, '0')}.000Z`,
          updatedAt: `2026-02-01T00:00:${String(n).padStart(2, '0')}.000Z`,
        });
        if (n === 11) delete (row as Partial<Study>).createdAt; // not in the createdAt index
        return hidden.includes(n) ? { ...row, $hidden: 1, $base: row } : row;
      }),
    );
    return db;
  }

  it('gives the same rows and count as the filtered read, for every sort, offset and hidden rows', async () => {
    for (const hidden of [[], [0, 4, 5, 11, 29]]) {
      const db = await thirty(hidden);
      for (const orderBy of [undefined, 'createdAt', 'updatedAt', 'name'])
        for (const reverse of [false, true])
          for (const offset of [0, 1, 7, 24, 40]) {
            const opts = { orderBy, reverse, offset, limit: 10 };
            const indexed = await readPage<Study>(db, 'studies', opts);
            const full = await readPage<Study>(db, 'studies', { ...opts, where: () => true });
            const what = JSON.stringify({ hidden, ...opts });
            expect(
              indexed.rows.map((r) => r.id),
              what,
            ).toEqual(full.rows.map((r) => r.id));
            expect(indexed.count, what).toBe(full.count);
          }
    }
  });

  it('follows writes in a live query (a new row, a pending marker, a hidden row)', async () => {
    const db = await thirty([]);
    const seen: Array<{ first: string; pending?: number; count: number }> = [];
    const stop = observe(
      () => readPage<Study>(db, 'studies', { orderBy: 'createdAt', reverse: true, limit: 5 }),
      (page) => seen.push({ first: page.rows[0].id, pending: page.rows[0].$pending, count: page.count }),
    );
    const next = async (n: number) => {
      for (let i = 0; i < 100 && seen.length < n; i++) await new Promise((r) => setTimeout(r, 10));
      return seen[n - 1];
    };
    expect(await next(1)).toEqual({ first: 's29', pending: undefined, count: 29 }); // s11 has no createdAt
    await db.studies.put(studyRow('new', { createdAt: '2026-03-01T00:00:00.000Z' }));
    expect(await next(2)).toEqual({ first: 'new', pending: undefined, count: 30 });
    await db.studies.update('new', { $pending: 1, $base: studyRow('new') });
    expect(await next(3)).toEqual({ first: 'new', pending: 1, count: 30 });
    await db.studies.update('new', { $hidden: 1 });
    expect(await next(4)).toEqual({ first: 's29', pending: undefined, count: 29 });
    stop();
  });
});
