// POST /v2/sync/batch on PGlite and PostgreSQL: each entry answered as its own route would (status,
// body, message), in order, applied exactly once under its Idempotency-Key, a refused entry not
// blocking the next, permission checks per entry, and the calls a batch may not carry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { STUDY_NAME_MAX } from '../../src/api/constants';
import { Denied } from '../../src/api/messages';
import { SYNC_BATCH_MAX, type SyncBatchAnswer } from '../../src/api/sync-batch';
import { activities, studies } from '../../src/server/db/schema';
import { addOrganization, bearer, dbTargets, memberToken, startApp, type TestApp } from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

interface Entry {
  id: string;
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

describe.each(targets)('sync batch on $name', (target) => {
  let t: TestApp;
  let owner: { id: string; token: string }; // manages studies in Lab
  let colleague: { id: string; token: string }; // Lab member without policies

  beforeAll(async () => {
    t = await startApp(target);
    const lab = await addOrganization(t.app, { name: 'Lab' });
    owner = await memberToken(t.app, {
      email: 'owner@lab.test',
      organizationId: lab,
      policies: ['manageOrganizationStudies'],
    });
    colleague = await memberToken(t.app, { email: 'colleague@lab.test', organizationId: lab });
  });
  afterAll(() => t.close());

  const batch = (token: string | undefined, entries: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/sync/batch',
      headers: token ? bearer(token) : {},
      payload: { entries } as object,
    });
  const answers = async (token: string, entries: Entry[]) => {
    const res = await batch(token, entries);
    expect(res.statusCode).toBe(200);
    const results = res.json().results as SyncBatchAnswer[];
    expect(results.map((r) => r.id)).toEqual(entries.map((e) => e.id));
    return results;
  };
  const key = () => crypto.randomUUID();
  const create = (name: string, extra: Record<string, unknown> = {}): Entry => ({
    id: key(),
    method: 'POST',
    path: '/studies',
    body: { study: { name, ...extra } },
  });
  const named = (name: string) => t.app.ctx.db.select().from(studies).where(eq(studies.name, name));
  const created = async (name: string) => {
    const [entry] = await answers(owner.token, [create(name)]);
    return (entry.body as { result: { id: string } }).result.id;
  };

  it('applies each entry exactly once: the same batch again gets the stored answers', async () => {
    const stamp = `once ${Date.now()}`;
    const entries = [create(`${stamp} a`), create(`${stamp} b`), create(`${stamp} c`)];
    const first = await answers(owner.token, entries);
    expect(first.map((r) => r.status)).toEqual([200, 200, 200]);
    const again = await answers(owner.token, entries);
    expect(again).toEqual(first);
    for (const suffix of ['a', 'b', 'c']) expect(await named(`${stamp} ${suffix}`)).toHaveLength(1);
    const ids = first.map((r) => (r.body as { result: { id: string } }).result.id);
    const feed = await t.app.ctx.db.select().from(activities).where(inArray(activities.referenceId, ids));
    expect(feed).toHaveLength(3);
    // The single route knows the keys too (an entry first sent alone, then in a batch, or back).
    const single = await t.app.inject({
      method: 'POST',
      url: '/v2/studies',
      headers: { ...bearer(owner.token), 'idempotency-key': entries[1].id },
      payload: entries[1].body as object,
    });
    expect(single.headers['idempotent-replay']).toBe('true');
    expect(single.json()).toEqual(first[1].body);
    expect(await named(`${stamp} b`)).toHaveLength(1);
  });

  it('answers the same as the single route, and a key sent alone first is answered from its outcome', async () => {
    const name = `alone first ${Date.now()}`;
    const entry = create(name);
    const single = await t.app.inject({
      method: 'POST',
      url: '/v2/studies',
      headers: { ...bearer(owner.token), 'idempotency-key': entry.id },
      payload: entry.body as object,
    });
    const [answer] = await answers(owner.token, [entry]);
    expect(answer).toEqual({ id: entry.id, status: 200, body: single.json() });
    expect(await named(name)).toHaveLength(1);
  });

  it('answers a refused entry with its 4xx and message, and applies the next one', async () => {
    const good = `after a bad one ${Date.now()}`;
    const results = await answers(owner.token, [create('x'.repeat(STUDY_NAME_MAX + 1)), create(good)]);
    expect(results[0].status).toBe(400);
    expect((results[0].body as { message: string }).message).toMatch(/at most 100 characters/);
    expect(results[1].status).toBe(200);
    expect(await named(good)).toHaveLength(1);
    expect(await named('x'.repeat(STUDY_NAME_MAX + 1))).toHaveLength(0);
  });

  it('checks permissions per entry, as the caller', async () => {
    const stamp = `perm ${Date.now()}`;
    const mine = await answers(owner.token, [
      create(`${stamp} 1`),
      create(`${stamp} for another`, { creatorUserId: colleague.id }),
      create(`${stamp} 2`),
    ]);
    expect(mine.map((r) => r.status)).toEqual([200, 403, 200]);
    expect((mine[1].body as { message: string }).message).toBe(Denied.studiesForYourself);
    const theirs = await answers(colleague.token, [create(`${stamp} colleague`)]);
    expect(theirs[0].status).toBe(403);
    expect((theirs[0].body as { message: string }).message).toBe(Denied.noStudyPermission);
    expect(await named(`${stamp} for another`)).toHaveLength(0);
    expect(await named(`${stamp} colleague`)).toHaveLength(0);
  });

  it('applies entries in their order', async () => {
    const id = await created(`order ${Date.now()}`);
    const patch = (body: unknown): Entry => ({ id: key(), method: 'PATCH', path: `/studies/${id}`, body });
    const results = await answers(owner.token, [
      patch({ study: { name: 'first' } }),
      patch({ study: { name: 'second' }, add: { tags: ['one'] } }),
      patch({ study: {}, add: { tags: ['two'] }, remove: { tags: ['one'] } }),
      { id: key(), method: 'DELETE', path: `/studies/${id}` },
      patch({ study: { name: 'too late' } }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 404]);
    expect((results[2].body as { result: { name: string; tags: string[] } }).result).toMatchObject({
      name: 'second',
      tags: ['two'],
    });
    expect(await t.app.ctx.db.select().from(studies).where(eq(studies.id, id))).toHaveLength(0);
  });

  it('one key twice in a batch is applied once', async () => {
    const name = `twice ${Date.now()}`;
    const entry = create(name);
    const results = await answers(owner.token, [entry, entry]);
    expect(results[1]).toEqual(results[0]);
    expect(await named(name)).toHaveLength(1);
  });

  it('refuses, per entry, calls a batch may not carry; unknown calls are 404', async () => {
    const good = `after refused ${Date.now()}`;
    const results = await answers(owner.token, [
      { id: key(), method: 'POST', path: '/auth/logout' },
      { id: key(), method: 'POST', path: '/sync/batch', body: { entries: [create('nested')] } },
      { id: key(), method: 'POST', path: '/studies/../auth/logout' },
      { id: key(), method: 'POST', path: '/no-such-call', body: {} },
      create(good),
    ]);
    expect(results.map((r) => r.status)).toEqual([400, 400, 400, 404, 200]);
    expect((results[0].body as { message: string }).message).toBe(errorText('NOT_BATCHABLE'));
    expect(await named('nested')).toHaveLength(0);
    expect(await named(good)).toHaveLength(1);
  });

  it('needs a signed-in caller and a well-formed list', async () => {
    expect((await batch(undefined, [create('anonymous')])).statusCode).toBe(401);
    expect((await batch(owner.token, [])).statusCode).toBe(400);
    expect((await batch(owner.token, [{ id: key(), method: 'GET', path: '/studies' }])).statusCode).toBe(400);
    const tooMany = Array.from({ length: SYNC_BATCH_MAX + 1 }, (_, i) => create(`many ${i}`));
    expect((await batch(owner.token, tooMany)).statusCode).toBe(400);
    expect(await named('anonymous')).toHaveLength(0);
    expect(await named('many 0')).toHaveLength(0);
  });

  it('is described in /v2/openapi.json', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    expect(doc.paths['/v2/sync/batch']?.post).toBeDefined();
  });
});
