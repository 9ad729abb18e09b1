// Housekeeping (docs/security.md): idempotency keys older than a week are pruned by a periodic job of
// the queue, scheduled when a worker starts and by each run for the next period.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { idempotencyKeys, jobs } from '../../src/server/db/schema';
import {
  IDEMPOTENCY_KEEP_MS,
  PRUNE_IDEMPOTENCY_EVERY_MS,
  PRUNE_IDEMPOTENCY_KEYS,
} from '../../src/server/http/idempotency';
import { periodicJobId, schedulePeriodic } from '../../src/server/jobs/periodic';
import { bearer, dbTargets, login, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('housekeeping on $name', (target) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startApp(target);
    token = (await login(t.app)).access;
  });
  afterAll(() => t.close());

  const createStudy = (key: string, name: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/studies',
      headers: { ...bearer(token), 'idempotency-key': key },
      payload: { study: { name } },
    });

  it('prunes idempotency keys older than a week in the periodic job, and schedules the next run', async () => {
    expect((await createStudy('old-key', 'Old')).statusCode).toBe(200);
    expect((await createStudy('new-key', 'New')).statusCode).toBe(200);
    await t.app.ctx.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - IDEMPOTENCY_KEEP_MS - 60_000) })
      .where(eq(idempotencyKeys.key, 'old-key'));
    // The run of the period that has just begun.
    const due = await schedulePeriodic(
      t.app.ctx.db,
      PRUNE_IDEMPOTENCY_KEYS,
      PRUNE_IDEMPOTENCY_EVERY_MS,
      new Date(Date.now() - PRUNE_IDEMPOTENCY_EVERY_MS),
    );
    await t.app.ctx.jobs.drain();
    const [ran] = await t.app.ctx.db.select().from(jobs).where(eq(jobs.id, due!));
    expect(ran.status).toBe('done');
    const keys = (await t.app.ctx.db.select().from(idempotencyKeys)).map((k) => k.key);
    expect(keys).toContain('new-key');
    expect(keys).not.toContain('old-key');
    const period = PRUNE_IDEMPOTENCY_EVERY_MS;
    const nextSlot = (Math.floor(Date.now() / period) + 1) * period;
    const [next] = await t.app.ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, periodicJobId(PRUNE_IDEMPOTENCY_KEYS, nextSlot)));
    expect(next).toMatchObject({ kind: PRUNE_IDEMPOTENCY_KEYS, status: 'queued' });
    // A replay of the kept key still answers from its first outcome.
    const replay = await createStudy('new-key', 'New');
    expect(replay.headers['idempotent-replay']).toBe('true');
  });

  it('is scheduled when a job worker starts', async () => {
    await t.app.ctx.db.delete(jobs).where(eq(jobs.kind, PRUNE_IDEMPOTENCY_KEYS));
    t.app.ctx.jobs.start();
    let found = 0;
    for (let i = 0; i < 100 && !found; i++) {
      await new Promise((r) => setTimeout(r, 20));
      found = (await t.app.ctx.db.select().from(jobs).where(eq(jobs.kind, PRUNE_IDEMPOTENCY_KEYS))).length;
    }
    await t.app.ctx.jobs.stop();
    expect(found).toBe(1);
  });
});
