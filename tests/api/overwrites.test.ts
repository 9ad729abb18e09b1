// PATCH with a base (src/api/edit-base.ts) on PGlite and PostgreSQL: the last write still wins, and
// the answer names the newer values it replaced (`overwritten`) when, and only when, the field had
// changed on the server since the sender's base; also through a batch, and replayed under its key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { SyncBatchAnswer } from '../../src/api/sync-batch';
import { studies } from '../../src/server/db/schema';
import { addOrganization, bearer, dbTargets, login, memberToken, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

interface Row {
  id: string;
  name: string | null;
  notes?: string;
  updatedAt: string;
}

describe.each(targets)('overwritten values on $name', (target) => {
  let t: TestApp;
  let owner: string; // manages studies and makes labels in Lab: "device A"
  let admin: string; // "someone else", online

  beforeAll(async () => {
    t = await startApp(target);
    const lab = await addOrganization(t.app, { name: 'Lab' });
    const policies = ['manageOrganizationStudies', 'createOrganizationLabels'];
    owner = (await memberToken(t.app, { email: 'owner@lab.test', organizationId: lab, policies })).token;
    admin = (await login(t.app)).access;
  });
  afterAll(() => t.close());

  const call = (
    token: string,
    method: 'POST' | 'PATCH',
    url: string,
    payload: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url: `/v2${url}`,
      headers: { ...bearer(token), ...headers },
      payload: payload as object,
    });
  const ok = async (res: Awaited<ReturnType<typeof call>>) => {
    expect(res.statusCode, res.payload).toBe(200);
    return res.json() as { result: Row; overwritten?: unknown[] };
  };
  const newStudy = async (name: string) =>
    (await ok(await call(owner, 'POST', '/studies', { study: { name } }))).result;
  const rename = (token: string, row: Row, name: string, base?: Partial<Row>) =>
    call(token, 'PATCH', `/studies/${row.id}`, { study: { name }, ...(base ? { base } : {}) });

  it('answers the newer name a rename replaced, with both values; the rename is stored (last write wins)', async () => {
    const seen = await newStudy('Liver');
    await ok(await rename(admin, seen, 'Liver (B)'));
    const body = await ok(
      await rename(owner, seen, 'Liver (A)', { updatedAt: seen.updatedAt, name: 'Liver' }),
    );
    expect(body.result.name).toBe('Liver (A)');
    expect(body.overwritten).toEqual([{ field: 'name', serverValue: 'Liver (B)', yourValue: 'Liver (A)' }]);
    const [stored] = await t.app.ctx.db.select().from(studies).where(eq(studies.id, seen.id));
    expect(stored.name).toBe('Liver (A)');
  });

  it('answers nothing more when the field had not changed since the base, or no base was sent', async () => {
    // The row moved (a tag), but its name is still the one the sender replaced.
    const seen = await newStudy('Kidney');
    await ok(await call(admin, 'PATCH', `/studies/${seen.id}`, { study: {}, add: { tags: ['tox'] } }));
    const moved = await ok(
      await rename(owner, seen, 'Kidney (A)', { updatedAt: seen.updatedAt, name: 'Kidney' }),
    );
    expect(moved).not.toHaveProperty('overwritten');
    // Two renames queued on one device: the second replaces the first, both made on the same base.
    const twice = await ok(
      await rename(owner, seen, 'Kidney (A2)', { updatedAt: seen.updatedAt, name: 'Kidney (A)' }),
    );
    expect(twice).not.toHaveProperty('overwritten');
    // The row never moved since the base (an earlier edit of this device was refused meanwhile).
    const current = twice.result;
    const unmoved = await ok(
      await rename(owner, current, 'Kidney (A3)', { updatedAt: current.updatedAt, name: 'x' }),
    );
    expect(unmoved).not.toHaveProperty('overwritten');
    // Someone else's newer name replaced by a client that does not send a base: nothing to say.
    await ok(await rename(admin, current, 'Kidney (B)'));
    expect(await ok(await rename(owner, current, 'Kidney (A4)'))).not.toHaveProperty('overwritten');
  });

  it("answers a slide's overwritten notes; its unchanged name is not named", async () => {
    const created = await ok(
      await call(admin, 'POST', '/scan-groups', { scanGroup: { name: 'S1', notes: 'first' } }),
    );
    const seen = created.result;
    // Only slide managers edit slides: one administrator on two devices.
    await ok(await call(admin, 'PATCH', `/scan-groups/${seen.id}`, { scanGroup: { notes: 'theirs' } }));
    const body = await ok(
      await call(admin, 'PATCH', `/scan-groups/${seen.id}`, {
        scanGroup: { name: 'S1 (A)', notes: 'mine' },
        base: { updatedAt: seen.updatedAt, name: 'S1', notes: 'first' },
      }),
    );
    expect(body.result).toMatchObject({ name: 'S1 (A)', notes: 'mine' });
    expect(body.overwritten).toEqual([{ field: 'notes', serverValue: 'theirs', yourValue: 'mine' }]);
  });

  it('answers it inside a batch and again to a replay of the same key', async () => {
    const seen = await newStudy('Lung');
    await ok(await rename(admin, seen, 'Lung (B)'));
    const entry = {
      id: crypto.randomUUID(),
      method: 'PATCH',
      path: `/studies/${seen.id}`,
      body: { study: { name: 'Lung (A)' }, base: { updatedAt: seen.updatedAt, name: 'Lung' } },
    };
    const expected = [{ field: 'name', serverValue: 'Lung (B)', yourValue: 'Lung (A)' }];
    for (let i = 0; i < 2; i++) {
      const res = await call(owner, 'POST', '/sync/batch', { entries: [entry] });
      expect(res.statusCode).toBe(200);
      const [answer] = res.json().results as SyncBatchAnswer[];
      expect(answer.status).toBe(200);
      expect((answer.body as { overwritten?: unknown }).overwritten).toEqual(expected);
    }
  });

  it('refuses a malformed base with the field named, changing nothing', async () => {
    const seen = await newStudy('Heart');
    for (const base of [
      { updatedAt: 'yesterday', name: 'Heart' },
      { name: 'Heart' },
      { updatedAt: seen.updatedAt, notes: 'x' },
    ]) {
      const res = await rename(owner, seen, 'Heart (A)', base as Partial<Row>);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/base/);
    }
    const [stored] = await t.app.ctx.db.select().from(studies).where(eq(studies.id, seen.id));
    expect(stored.name).toBe('Heart');
  });
});
