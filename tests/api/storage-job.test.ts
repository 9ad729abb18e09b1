// Archiving and reactivating a slide runs through the storage job: PATCH archiveAt starts the step,
// the job finishes it, and the slide's images follow (§4.2).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs, organizations, scanGroups } from '../../src/server/db/schema';
import { bearer, dbTargets, login, startApp, type TestApp } from './helpers';

const [target] = await dbTargets();

describe(`storage job on ${target.name}`, () => {
  let t: TestApp;
  let token: string;
  let id: string;
  beforeAll(async () => {
    t = await startApp(target);
    token = (await login(t.app)).access;
    const [org] = await t.app.ctx.db.select().from(organizations);
    id = crypto.randomUUID();
    await t.app.ctx.db
      .insert(scanGroups)
      .values({ id, simpleId: 'ARCH0001', organizationId: org.id, status: 'active' });
  });
  afterAll(() => t.close());

  const patch = (archiveAt: string | null) =>
    t.app.inject({
      method: 'PATCH',
      url: `/v2/scan-groups/${id}`,
      headers: bearer(token),
      payload: { scanGroup: { archiveAt } },
    });
  const runDueJobs = async () => {
    await t.app.ctx.db
      .update(jobs)
      .set({ runAt: new Date(0) })
      .where(eq(jobs.status, 'queued'));
    await t.app.ctx.jobs.drain();
  };
  const slide = async () => (await t.app.ctx.db.select().from(scanGroups).where(eq(scanGroups.id, id)))[0];

  it('archives: archiving now, archived once the job ran, with a history entry per step', async () => {
    const res = await patch(new Date().toISOString());
    expect(res.statusCode).toBe(200);
    expect(res.json().result.status).toBe('archiving');
    await runDueJobs();
    const row = await slide();
    expect(row.storageStatus).toBe('archived');
    expect(row.status).toBe('archived');
    expect(row.storageHistory.map((h) => h.storageStatus)).toEqual(['archiveReady', 'archived']);
  });

  it('reactivates: restoring, then active once the job ran', async () => {
    const res = await patch(null);
    expect(res.statusCode).toBe(200);
    expect(res.json().result.storageStatus).toBe('restoring');
    await runDueJobs();
    expect((await slide()).storageStatus).toBe('active');
  });
});
