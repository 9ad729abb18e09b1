// The sync feed under the two ways it could go wrong: review groups counted differently from
// GET /v2/reviews/groups, and a change that commits after a later-numbered one being skipped by a
// cursor that already moved past it (migration 0008_sync_floor). On PGlite and PostgreSQL.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organs } from '../../src/server/db/schema';
import { bearer, dbTargets, login, startApp, type TestApp } from './helpers';
import { caller, reviewLab, type Person, type ReviewLab } from './reviews-fixture';

interface Page {
  result: Array<Record<string, unknown> & { id: string }>;
  deletedIds: string[];
  cursor: string;
  hasMore: boolean;
}

const targets = await dbTargets();

describe.each(targets)('sync feed consistency on $name', (target) => {
  let t: TestApp;
  let lab: ReviewLab;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    t = await startApp(target);
    lab = await reviewLab(t.app);
    call = caller(t.app);
  });
  afterAll(() => t.close());

  const pull = async (token: string, kind: string, cursor?: string): Promise<Page> => {
    const qs = new URLSearchParams({ limit: '500', ...(cursor ? { cursor } : {}) });
    const res = await t.app.inject({ method: 'GET', url: `/v2/sync/${kind}?${qs}`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };
  /** Every page from `cursor` on: the rows, and where it ended. */
  const pullAll = async (token: string, kind: string, cursor?: string) => {
    const rows: Page['result'] = [];
    for (;;) {
      const page = await pull(token, kind, cursor);
      rows.push(...page.result);
      cursor = page.cursor;
      if (!page.hasMore) return { rows, cursor };
    }
  };

  describe('review groups', () => {
    const group = crypto.randomUUID();
    let privateReview: string;
    const asListed = async (who: Person) => {
      const res = await call(who, 'GET', `/v2/reviews/groups?ids=${group}`);
      expect(res.statusCode).toBe(200);
      return (res.json() as { result: Array<Record<string, unknown>> }).result;
    };
    const asSynced = async (who: Person) =>
      (await pullAll(who.token, 'review-groups')).rows.filter((g) => g.id === group);
    const ids = async (who: Person) =>
      (await call(who, 'GET', '/v2/sync/review-groups/ids')).json().ids as string[];

    beforeAll(async () => {
      const { requester, reviewer1, reviewer2 } = lab.people;
      const request = (reviewer: Person, visibility: string, imageId: string) =>
        call(requester, 'POST', '/v2/reviews', {
          review: { reviewGroupUUID: group, imageId, reviewerId: reviewer.id, visibility },
        });
      expect((await request(reviewer1, 'public', lab.images.img1)).statusCode).toBe(200);
      const hidden = await request(reviewer2, 'private', lab.images.img2);
      expect(hidden.statusCode).toBe(200);
      privateReview = hidden.json().result.id;
      const done = await call(reviewer1, 'GET', `/v2/reviews?reviewGroupUUID=${group}`);
      const [mine] = done.json().result as Array<{ id: string }>;
      expect(
        (await call(reviewer1, 'PATCH', `/v2/reviews/${mine.id}`, { review: { status: 'completed' } }))
          .statusCode,
      ).toBe(200);
    });

    it('counts, in the feed, only the reviews the caller may read, like the list', async () => {
      const { requester, reviewer1, reviewer2, plain, outsider } = lab.people;
      // The requester reads both; reviewer 1 and a lab member only the public one; reviewer 2 both
      // (the public one through the organization); the outsider none.
      const expected: Array<[Person, number, number]> = [
        [requester, 2, 1],
        [reviewer1, 1, 0],
        [reviewer2, 2, 1],
        [plain, 1, 0],
      ];
      for (const [who, total, pending] of expected) {
        const listed = await asListed(who);
        expect(listed).toHaveLength(1);
        expect(listed[0]).toMatchObject({ total, pending, completed: 1 });
        expect(await asSynced(who)).toEqual(listed);
        expect(await ids(who)).toContain(group);
      }
      expect(await asListed(outsider)).toEqual([]);
      expect(await asSynced(outsider)).toEqual([]);
      expect(await ids(outsider)).not.toContain(group);
    });

    it('moves the group in the feed when a review becomes visible, with the new counts', async () => {
      const { requester, plain } = lab.people;
      const before = await pullAll(plain.token, 'review-groups');
      const res = await call(requester, 'PATCH', `/v2/reviews/${privateReview}`, {
        review: { visibility: 'public' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const after = await pullAll(plain.token, 'review-groups', before.cursor);
      const synced = after.rows.filter((g) => g.id === group);
      expect(synced).toHaveLength(1);
      expect(synced[0]).toMatchObject({ total: 2, pending: 1, completed: 1 });
      expect(synced).toEqual(await asListed(plain));
    });
  });

  it('never skips a change that commits after a later-numbered one', async () => {
    const { db } = t.app.ctx;
    const token = (await login(t.app)).access;
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    await db.insert(organs).values([
      { id: a, name: `A-${a}`, animal: 'human' },
      { id: b, name: `B-${b}`, animal: 'human' },
    ]);
    const start = await pullAll(token, 'organs');

    // Transaction 1 writes A (taking the lower number) and stays open...
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wroteA = new Promise<void>((resolve) => (written = resolve));
    const slow = db.transaction(async (tx) => {
      await tx
        .update(organs)
        .set({ name: `A2-${a}` })
        .where(eq(organs.id, a));
      written();
      await gate;
    });
    await wroteA;
    // ...while B is written (a higher number) and committed, and a client pulls.
    const writeB = db
      .update(organs)
      .set({ name: `B2-${b}` })
      .where(eq(organs.id, b));
    let during: Page;
    if (target.name === 'postgres') {
      await writeB;
      during = await pull(token, 'organs', start.cursor);
      // B is held back: handing it out would move the cursor past A's number.
      expect(during.result.map((o) => o.id)).not.toContain(b);
      expect(during.result.map((o) => o.id)).not.toContain(a);
      release();
      await slow;
    } else {
      // PGlite runs one transaction at a time: B and the pull wait for transaction 1 to end.
      const pending = pull(token, 'organs', start.cursor);
      release();
      await Promise.all([slow, writeB]);
      during = await pending;
    }
    const rest = await pullAll(token, 'organs', during.cursor);
    const seen = new Map([...during.result, ...rest.rows].map((o) => [o.id, o.name]));
    expect(seen.get(a)).toBe(`A2-${a}`);
    expect(seen.get(b)).toBe(`B2-${b}`);
  });

  it('hands out tombstones and rows of one transaction together, below in-flight numbers', async () => {
    const { db } = t.app.ctx;
    const token = (await login(t.app)).access;
    const start = await pullAll(token, 'organs');
    const id = crypto.randomUUID();
    await db.insert(organs).values({ id, name: `C-${id}`, animal: 'mouse' });
    const res = await t.app.inject({ method: 'DELETE', url: `/v2/organs/${id}`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    const page = await pull(token, 'organs', start.cursor);
    expect(page.deletedIds).toContain(id);
    expect(Number(page.cursor)).toBeGreaterThan(Number(start.cursor));
  });
});
