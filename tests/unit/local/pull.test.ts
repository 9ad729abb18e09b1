// The pull side against a real server: pages and cursors, an interrupted pull resuming with no gap and
// no duplicate, deletions, lost access, kinds the server does not serve yet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Study } from '../../../src/api/entities';
import { createEntity } from '../../../src/local/outbox';
import { PULL_CONCURRENCY, pullAll, pullKind, reconcileKind } from '../../../src/local/pull';
import { readRows } from '../../../src/local/read';
import { controllable, freshDb, startServer, type Server } from './harness';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s?.close());

const createStudy = async (name: string, email?: string) => {
  const res = await s.call<{ result: Study }>('POST', '/studies', { study: { name } }, email);
  expect([200, 201]).toContain(res.status);
  return res.body.result;
};

describe('pull', () => {
  it('mirrors a kind page by page, then fetches only what changed, and drops deleted rows', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createStudy(`pull ${i}`));
    const db = freshDb();
    const { transport, state } = controllable(await s.transportFor());
    const first = await pullKind(db, transport, 'studies', { limit: 2 });
    expect(first).toMatchObject({ status: 'done', pages: 3 });
    const names = (await readRows<Study>(db, 'studies')).map((r) => r.name);
    for (const m of made) expect(names).toContain(m.name);

    state.log.length = 0;
    const idle = await pullKind(db, transport, 'studies', { limit: 2 });
    expect(idle).toMatchObject({ status: 'done', pages: 1, rows: 0 });

    await s.call('PATCH', `/studies/${made[1].id}`, { study: { name: 'pull renamed' } });
    await s.call('DELETE', `/studies/${made[2].id}`);
    const changed = await pullKind(db, transport, 'studies', { limit: 2 });
    expect(changed).toMatchObject({ status: 'done', rows: 1, deleted: 1 });
    expect((await db.studies.get(made[1].id))?.name).toBe('pull renamed');
    expect(await db.studies.get(made[2].id)).toBeUndefined();
  });

  it('resumes an interrupted pull from the stored cursor: no gap, no duplicate', async () => {
    for (let i = 0; i < 23; i++) await createStudy(`resume ${i}`);
    const expected = new Set(
      ((await s.call<{ ids: string[] }>('GET', '/sync/studies/ids')).body as { ids: string[] }).ids,
    );
    const db = freshDb();
    const { transport, state } = controllable(await s.transportFor());
    const received: string[] = [];
    let pages = 0;
    // The page is closed after the third stored page: the fourth answer never gets stored.
    const closed = pullKind(db, transport, 'studies', {
      limit: 5,
      onPage: (_kind, page) => {
        received.push(...page.result.map((r) => String(r.id)));
        if (++pages === 3) throw new Error('page closed');
      },
    });
    await expect(closed).rejects.toThrow('page closed');
    const stored = await db.cursors.get('studies');
    expect(stored?.cursor).toBeTruthy();

    state.log.length = 0;
    const resumed = await pullKind(db, transport, 'studies', {
      limit: 5,
      onPage: (_kind, page) => void received.push(...page.result.map((r) => String(r.id))),
    });
    expect(resumed.status).toBe('done');
    expect(state.log[0]).toContain(`cursor=${stored!.cursor}`);
    expect(received.length).toBe(new Set(received).size); // no duplicate
    expect(new Set(received)).toEqual(expected); // no gap
    expect(await db.studies.count()).toBe(expected.size);
  });

  it('drops rows the user can no longer read, and keeps rows made here and not yet sent', async () => {
    const email = 'reader@lab.test';
    const userId = await s.addUser(email, [], { ownOrganization: true });
    const mine = await createStudy('shared then unshared');
    await s.call('PATCH', `/studies/${mine.id}`, { add: { assigneeUserIds: [userId] } });
    const db = freshDb();
    const transport = await s.transportFor(email);
    await pullKind(db, transport, 'studies');
    expect(await db.studies.get(mine.id)).toBeDefined();
    const { id: madeHere } = await createEntity(db, 'studies', { name: 'offline' });

    // The administrator stops sharing it with the user.
    const res = await s.call('PATCH', `/studies/${mine.id}`, { remove: { assigneeUserIds: [userId] } });
    expect(res.status).toBe(200);
    // The change feed does not show a row the user cannot read, so the stale copy survives a pull…
    await pullKind(db, transport, 'studies');
    expect(await db.studies.get(mine.id)).toBeDefined();
    // …and goes when the readable ids are compared.
    const rec = await reconcileKind(db, transport, 'studies');
    expect(rec).toMatchObject({ status: 'done', deleted: 1 });
    expect(await db.studies.get(mine.id)).toBeUndefined();
    expect(await db.studies.get(madeHere)).toBeDefined();
  });

  it('skips kinds the server does not serve yet, and stops when offline', async () => {
    const db = freshDb();
    const { transport, state } = controllable(await s.transportFor());
    const outcomes = await pullAll(db, transport, ['organizations', 'predictors', 'users'], {
      reconcile: false,
    });
    expect(outcomes.map((o) => o.status)).toEqual([
      'done',
      expect.stringMatching(/done|unsupported/),
      'done',
    ]);
    expect(await db.meta.get('lastSyncedAt')).toBeDefined();
    state.offline = true;
    const off = await pullAll(db, transport, ['organizations', 'users']);
    expect(off.map((o) => o.status)).toEqual(['offline']);
  });

  it('pulls several kinds at once (at most PULL_CONCURRENCY requests out), outcomes in the order asked', async () => {
    await createStudy('concurrent');
    const db = freshDb();
    const inner = await s.transportFor();
    let out = 0;
    let most = 0;
    const transport: typeof inner = async (req) => {
      most = Math.max(most, ++out);
      try {
        return await inner(req);
      } finally {
        out--;
      }
    };
    const kinds = ['studies', 'organizations', 'users', 'organs', 'pipelines', 'reactions'] as const;
    const outcomes = await pullAll(db, transport, kinds, { reconcile: false });
    expect(outcomes.map((o) => o.kind)).toEqual(kinds);
    expect(outcomes.every((o) => o.status === 'done')).toBe(true);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(PULL_CONCURRENCY);
    // A pull that brings nothing still records the completed pull with the same cursor.
    const before = await db.cursors.get('studies');
    const idle = await pullKind(db, transport, 'studies');
    expect(idle).toMatchObject({ status: 'done', rows: 0, deleted: 0 });
    const after = await db.cursors.get('studies');
    expect(after?.cursor).toBe(before?.cursor);
    expect(after?.syncedAt).toBeDefined();
    expect(await db.studies.count()).toBeGreaterThan(0);
  });
});
