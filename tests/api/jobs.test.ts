// The job queue on PGlite and PostgreSQL: runs each job once; retries failures with backoff and gives
// up after the last attempt; takes over a job whose worker died (lease expired); gives a job to one of
// several racing workers; keeps a worker whose lease ran out from finishing a job taken over; caps
// attempts across crashes; runs several jobs per process; forgets finished jobs after their keeping
// time; and runs periodic work as scheduled jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { jobs } from '../../src/server/db/schema';
import {
  KEEP_DONE_JOBS_MS,
  KEEP_FAILED_JOBS_MS,
  PRUNE_FINISHED_JOBS,
  SWEEP_ARCHIVES,
} from '../../src/server/jobs/kinds';
import {
  ABANDONED_TEXT,
  claim,
  complete,
  enqueue,
  fail,
  failAbandoned,
  pruneFinishedJobs,
} from '../../src/server/jobs/queue';
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

  const expireLease = (id: string) =>
    t.app.ctx.db
      .update(jobs)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, id));

  it('gives a job to exactly one of several workers claiming it at once', async () => {
    const id = await enqueue(t.app.ctx.db, 'contested', {});
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, n) => claim(t.app.ctx.db, `racer-${n}`, ['contested'], 60_000)),
    );
    const winners = claims.filter((job) => job !== undefined);
    expect(winners.map((job) => job.id)).toEqual([id]);
    expect((await statusOf(id)).lockedBy).toBe(winners[0].lockedBy);
  });

  it('lets a worker whose lease ran out neither complete nor fail the job another took', async () => {
    const id = await enqueue(t.app.ctx.db, 'overtaken', {});
    const late = (await claim(t.app.ctx.db, 'late-worker', ['overtaken'], 60_000))!;
    await expireLease(id);
    const taker = (await claim(t.app.ctx.db, 'taker', ['overtaken'], 60_000))!;
    expect(taker.id).toBe(id);
    await complete(t.app.ctx.db, late);
    expect(await fail(t.app.ctx.db, late, new Error('too late'))).toBe('gone');
    expect(await statusOf(id)).toMatchObject({ status: 'running', lockedBy: 'taker', lastError: null });
    await complete(t.app.ctx.db, taker);
    expect((await statusOf(id)).status).toBe('done');
  });

  it('runs a job that crashes its worker every time at most its attempts, then fails it', async () => {
    const id = await enqueue(t.app.ctx.db, 'crashing', {}, { maxAttempts: 2 });
    for (const attempt of [1, 2]) {
      const job = await claim(t.app.ctx.db, `crashed-${attempt}`, ['crashing'], 60_000);
      expect(job?.attempts).toBe(attempt);
      await expireLease(id);
    }
    expect(await claim(t.app.ctx.db, 'third', ['crashing'], 60_000)).toBeUndefined();
    const ended = await failAbandoned(t.app.ctx.db, ['crashing']);
    expect(ended.map((job) => job.id)).toEqual([id]);
    expect(await statusOf(id)).toMatchObject({ status: 'failed', attempts: 2, lastError: ABANDONED_TEXT });
  });

  it('runs `concurrency` jobs at once in one process', async () => {
    let running = 0;
    let most = 0;
    const worker = new JobWorker({
      db: t.app.ctx.db,
      log: t.app.log,
      concurrency: 3,
      pollMs: 20,
      handlers: {
        wide: async () => {
          most = Math.max(most, ++running);
          await new Promise((r) => setTimeout(r, 300));
          running--;
        },
      },
    });
    const ids = await Promise.all([1, 2, 3].map((n) => enqueue(t.app.ctx.db, 'wide', { n })));
    worker.start();
    await expect
      .poll(async () => (await Promise.all(ids.map(statusOf))).every((j) => j.status === 'done'), {
        timeout: 10_000,
      })
      .toBe(true);
    await worker.stop();
    expect(most).toBe(3);
  });

  it('forgets done jobs after a week and failed ones after a month', async () => {
    const day = 24 * 60 * 60_000;
    const at = (status: 'done' | 'failed', daysAgo: number) =>
      enqueue(t.app.ctx.db, 'kept', { status, daysAgo }).then(async (id) => {
        await t.app.ctx.db
          .update(jobs)
          .set({ status, updatedAt: new Date(Date.now() - daysAgo * day) })
          .where(eq(jobs.id, id));
        return id;
      });
    const [oldDone, newDone, oldFailed, newFailed] = await Promise.all([
      at('done', 8),
      at('done', 6),
      at('failed', 31),
      at('failed', 8),
    ]);
    expect(
      await pruneFinishedJobs(t.app.ctx.db, KEEP_DONE_JOBS_MS, KEEP_FAILED_JOBS_MS),
    ).toBeGreaterThanOrEqual(2);
    expect(await statusOf(oldDone)).toBeUndefined();
    expect(await statusOf(oldFailed)).toBeUndefined();
    expect((await statusOf(newDone)).status).toBe('done');
    expect((await statusOf(newFailed)).status).toBe('failed');
  });

  it('schedules the archive sweep and the pruning as periodic jobs when a worker starts', async () => {
    t.app.ctx.jobs.start();
    const kinds = [SWEEP_ARCHIVES, PRUNE_FINISHED_JOBS];
    await expect
      .poll(async () => {
        const rows = await t.app.ctx.db.select().from(jobs).where(inArray(jobs.kind, kinds));
        return [...new Set(rows.filter((r) => r.status === 'queued').map((r) => r.kind))].sort();
      })
      .toEqual([...kinds].sort());
    await t.app.ctx.jobs.stop();
  });

  it('wakes an idle worker by NOTIFY when a job is enqueued, and at a delayed job’s time, not by polling', async () => {
    const ran: string[] = [];
    const worker = new JobWorker({
      db: t.app.ctx.db,
      log: t.app.log,
      pollMs: 120_000,
      listen: (channel, onPayload) => t.app.ctx.database.listen(channel, onPayload),
      handlers: { woken: async (job) => void ran.push(String(job.payload.n)) },
    });
    worker.start();
    // Idle now, for up to two minutes unless woken.
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const now = await enqueue(t.app.ctx.db, 'woken', { n: 'now' });
    await expect.poll(async () => (await statusOf(now)).status, { timeout: 10_000 }).toBe('done');
    const later = await enqueue(t.app.ctx.db, 'woken', { n: 'later' }, { runAt: new Date(Date.now() + 800) });
    await expect.poll(async () => (await statusOf(later)).status, { timeout: 10_000 }).toBe('done');
    await worker.stop();
    expect(ran).toEqual(['now', 'later']);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
