// The job queue: runs each job once, retries failures with backoff, gives up after the last attempt,
// and takes over a job whose worker died (lease expired) — on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../../src/server/db/schema';
import { claim, enqueue } from '../../src/server/jobs/queue';
import { JobWorker } from '../../src/server/jobs/worker';
import { dbTargets, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('job queue on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  const statusOf = async (id: string) => (await t.app.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0];

  it('runs a job once and marks it done', async () => {
    const seen: unknown[] = [];
    const worker = new JobWorker({
      db: t.app.ctx.db,
      log: t.app.log,
      handlers: { echo: async (job) => void seen.push(job.payload) },
    });
    const id = await enqueue(t.app.ctx.db, 'echo', { n: 1 });
    expect(await worker.drain()).toBe(1);
    expect(await worker.drain()).toBe(0);
    expect(seen).toEqual([{ n: 1 }]);
    expect((await statusOf(id)).status).toBe('done');
  });

  it('retries a failing job, then gives up after maxAttempts', async () => {
    let calls = 0;
    const gaveUp: string[] = [];
    const worker = new JobWorker({
      db: t.app.ctx.db,
      log: t.app.log,
      handlers: {
        flaky: async () => {
          calls++;
          throw new Error('disk on fire');
        },
      },
      onGiveUp: async (job) => void gaveUp.push(job.id),
    });
    const id = await enqueue(t.app.ctx.db, 'flaky', {}, { maxAttempts: 2 });
    await worker.drain();
    let row = await statusOf(id);
    expect(row.status).toBe('queued');
    expect(row.lastError).toBe('disk on fire');
    await t.app.ctx.db
      .update(jobs)
      .set({ runAt: new Date(0) })
      .where(eq(jobs.id, id));
    await worker.drain();
    row = await statusOf(id);
    expect(row.status).toBe('failed');
    expect(calls).toBe(2);
    expect(gaveUp).toEqual([id]);
  });

  it('gives a crashed worker’s job to another once its lease runs out', async () => {
    const id = await enqueue(t.app.ctx.db, 'slow', {});
    const first = await claim(t.app.ctx.db, 'dead-worker', ['slow'], 60_000);
    expect(first?.id).toBe(id);
    expect(await claim(t.app.ctx.db, 'other', ['slow'], 60_000)).toBeUndefined();
    // The worker died: its lease runs out (set in the past rather than waited for).
    await t.app.ctx.db
      .update(jobs)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, id));
    const again = await claim(t.app.ctx.db, 'other', ['slow'], 60_000);
    expect(again?.id).toBe(id);
    expect(again?.attempts).toBe(2);
  });
});
