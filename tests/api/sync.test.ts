// The sync feed: pages by change sequence, reports deletions, and serves only readable rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema';
import { recordDeletion } from '../../src/server/sync/kinds';
import { addUser, bearer, dbTargets, login, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('sync feed on $name', (target) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startApp(target);
    for (let i = 0; i < 5; i++) await addUser(t.app, { email: `u${i}@lab.test` });
    token = (await login(t.app)).access;
  });
  afterAll(() => t.close());

  const pull = async (kind: string, cursor?: string, limit = 2) => {
    const qs = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const res = await t.app.inject({ method: 'GET', url: `/v2/sync/${kind}?${qs}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      result: Array<{ id: string; email: string }>;
      deletedIds: string[];
      cursor: string;
      hasMore: boolean;
    };
  };

  it('pages through every row exactly once, then reports only what changed', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await pull('users', cursor);
      seen.push(...page.result.map((u) => u.email));
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    const idle = await pull('users', cursor);
    expect(idle.result).toHaveLength(0);
    expect(idle.cursor).toBe(cursor);

    await t.app.ctx.db.update(users).set({ name: 'Renamed' }).where(eq(users.email, 'u3@lab.test'));
    const changed = await pull('users', cursor);
    expect(changed.result.map((u) => u.email)).toEqual(['u3@lab.test']);

    const [u4] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'u4@lab.test'));
    await recordDeletion(t.app.ctx.db, 'users', [u4.id]);
    const gone = await pull('users', changed.cursor);
    expect(gone.deletedIds).toEqual([u4.id]);
  });

  it('lists the readable ids, and refuses bad cursors and unknown kinds', async () => {
    const ids = await t.app.inject({
      method: 'GET',
      url: '/v2/sync/organizations/ids',
      headers: bearer(token),
    });
    expect(ids.json().ids).toHaveLength(1);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/v2/sync/users?cursor=abc',
      headers: bearer(token),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('cursor is not one this server gave out');
    const kind = await t.app.inject({ method: 'GET', url: '/v2/sync/nonsense', headers: bearer(token) });
    expect(kind.statusCode).toBe(400);
    const anon = await t.app.inject({ method: 'GET', url: '/v2/sync/users' });
    expect(anon.statusCode).toBe(401);
  });
});
