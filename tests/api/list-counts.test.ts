// The list envelope's `count` stays exact while it is served without counting (short pages) or from
// the count cache (src/server/lists/count-cache.ts): after creates, deletes, sharing, a slide's organ
// changing under a study filter, and — on PostgreSQL — a transaction that took its change number
// before a later one committed.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organs, scanGroups } from '../../src/server/db/schema';
import { addOrganization, bearer, dbTargets, login, memberToken, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('list counts on $name', (target) => {
  let t: TestApp;
  let lab: string;
  let other: string;
  let admin: string;
  let colleague: string;
  let kidney: string;
  let liver: string;

  beforeAll(async () => {
    t = await startApp(target);
    lab = await addOrganization(t.app, { name: 'Count Lab' });
    other = await addOrganization(t.app, { name: 'Other Count Lab' });
    admin = (await login(t.app)).access;
    colleague = (await memberToken(t.app, { email: 'colleague@count.test', organizationId: other })).token;
    kidney = crypto.randomUUID();
    liver = crypto.randomUUID();
    await t.app.ctx.db.insert(organs).values([
      { id: kidney, name: 'Kidney', animal: 'Rat' },
      { id: liver, name: 'Liver', animal: 'Rat' },
    ]);
  });
  afterAll(() => t.close());

  const call = async (
    token: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: object,
  ) => {
    const res = await t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), payload: body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const slide = async (scanGroup: Record<string, unknown> = {}) =>
    (await call(admin, 'POST', '/scan-groups', { scanGroup: { organizationId: lab, ...scanGroup } })).result
      .id as string;
  const list = async (token: string, url: string) =>
    (await call(token, 'GET', url)) as { result: unknown[]; count: number; page: number; limit: number };

  it('counts full pages exactly across creates, deletes and sharing', async () => {
    const url = `/scan-groups?organizationId=${lab}&limit=2`;
    const ids = [await slide(), await slide(), await slide()];
    for (let i = 0; i < 2; i++) expect(await list(admin, url)).toMatchObject({ count: 3, page: 1, limit: 2 });
    ids.push(await slide());
    expect((await list(admin, url)).count).toBe(4);
    await call(admin, 'DELETE', `/scan-groups/${ids[0]}`);
    expect((await list(admin, url)).count).toBe(3);
    // The same statement with another parameter is another count.
    for (let i = 0; i < 2; i++) await slide({ organizationId: other });
    expect((await list(admin, `/scan-groups?organizationId=${other}&limit=2`)).count).toBe(2);
    expect((await list(admin, `/scan-groups?organizationId=${other}&limit=1`)).count).toBe(2);
    expect((await list(admin, url)).count).toBe(3);
    // A short page: every row is in hand.
    expect(await list(admin, `${url}&page=2`)).toMatchObject({ count: 3, page: 2 });
    expect((await list(admin, `${url}&page=2`)).result).toHaveLength(1);
    // Past the end: no rows, still the count.
    expect(await list(admin, `${url}&page=9`)).toMatchObject({ result: [], count: 3 });

    // Another organization's member reads what is shared with it, and its count follows the sharing.
    const theirs = `/scan-groups?organizationId=${lab}&limit=1`;
    expect((await list(colleague, theirs)).count).toBe(0);
    for (const id of ids.slice(1))
      await call(admin, 'PATCH', `/scan-groups/${id}`, { add: { assigneeOrgIds: [other] } });
    expect((await list(colleague, theirs)).count).toBe(3);
    expect((await list(colleague, theirs)).count).toBe(3);
    await call(admin, 'PATCH', `/scan-groups/${ids[1]}`, { remove: { assigneeOrgIds: [other] } });
    expect((await list(colleague, theirs)).count).toBe(2);
  });

  it("counts studies by their slides' organ as the slides change", async () => {
    const [a, b] = [await slide({ organId: kidney }), await slide({ organId: kidney })];
    const study = (scanGroupIds: string[]) =>
      call(admin, 'POST', '/studies', { study: { name: `count ${crypto.randomUUID()}`, scanGroupIds } });
    for (const ids of [[a], [a], [a], [b]]) await study(ids);
    const url = `/studies?organId=${kidney}&limit=1`;
    expect((await list(admin, url)).count).toBe(4);
    expect((await list(admin, url)).count).toBe(4);
    await call(admin, 'PATCH', `/scan-groups/${b}`, { scanGroup: { organId: liver } });
    expect((await list(admin, url)).count).toBe(3);
    expect((await list(admin, `/studies?organId=${liver}&limit=1`)).count).toBe(1);
    expect((await list(admin, `/studies?slideId=${a}&limit=2`)).count).toBe(3);
  });

  it.runIf(target.name === 'postgres')(
    'counts a row whose transaction took its number before a later commit',
    async () => {
      const url = `/scan-groups?organizationId=${lab}&limit=1`;
      const before = (await list(admin, url)).count;
      const late = crypto.randomUUID();
      await t.app.ctx.db.transaction(async (tx) => {
        // This transaction takes its change number first and commits last.
        await tx.insert(scanGroups).values({ id: late, simpleId: 'LATECOMMIT', organizationId: lab });
        await slide(); // takes a higher number and commits now
        expect((await list(admin, url)).count).toBe(before + 1);
        expect((await list(admin, url)).count).toBe(before + 1);
      });
      // The table's highest number is still the other slide's: only a count taken after the commit is right.
      expect((await list(admin, url)).count).toBe(before + 2);
    },
  );

  it('answers a caller who reads few rows the same once their match set is read whole', async () => {
    const small = await addOrganization(t.app, { name: 'Small Count Lab' });
    const reader = await memberToken(t.app, { email: 'reader@count.test', organizationId: small });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await slide({ name: `Few ${i}` }));
    for (const id of ids.slice(0, 3))
      await call(admin, 'PATCH', `/scan-groups/${id}`, { add: { assigneeUserIds: [reader.id] } });

    // The list statements the server sends: the first walks the created-at index, every later one
    // (its conditions' last count was 3) reads the three rows whole (lists/page-statement.ts).
    const database = t.app.ctx.database;
    const query = database.query.bind(database);
    const sent: string[] = [];
    database.query = ((text: string, ...rest: [unknown[]?, { prepared?: boolean }?]) => {
      if (text.includes('string_agg')) sent.push(text);
      return query(text, ...rest);
    }) as typeof database.query;
    try {
      const pages = async () => [
        await list(reader.token, '/scan-groups?limit=2'),
        await list(reader.token, '/scan-groups?limit=2&page=2'),
        await list(reader.token, '/studies'),
        await list(reader.token, '/studies?name=Few'),
      ];
      const first = await pages();
      expect(first.map((p) => p.count)).toEqual([3, 3, 0, 0]);
      expect(first.slice(0, 2).flatMap((p) => p.result.map((r) => (r as { id: string }).id))).toEqual(
        ids.slice(0, 3).reverse(),
      );
      expect(await pages()).toEqual(first);
      const readWhole = sent.map((text) => text.includes('OFFSET 0) AS'));
      expect(readWhole).toEqual([false, true, false, false, true, true, true, true]);

      // A row shared since: the whole read sees it, in its place.
      await call(admin, 'PATCH', `/scan-groups/${ids[4]}`, { add: { assigneeUserIds: [reader.id] } });
      const after = await list(reader.token, '/scan-groups?limit=2');
      expect(after.count).toBe(4);
      expect(after.result.map((r) => (r as { id: string }).id)).toEqual([ids[4], ids[2]]);
    } finally {
      database.query = query;
    }
  });
});
