// Abandoned uploads expire through the 'expire-uploads' job of the database queue: queued once per
// period however many workers schedule it, scheduled again by each run and by each worker start (so
// it survives restarts), and a run frees the bytes of uploads past their expiry only.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gt } from 'drizzle-orm';
import { buildApp } from '../../src/server/app';
import { jobs, uploadGroups, uploads } from '../../src/server/db/schema';
import { EXPIRE_UPLOADS, expiryJobId, scheduleUploadExpiry } from '../../src/server/uploads/expiry-job';
import { addLabFixture, dbTargets, startApp, type LabFixture, type TestApp } from './helpers';
import { tusClient } from './uploads-tus';

const targets = await dbTargets();
const PERIOD_MS = 15 * 60_000;

describe.each(targets)('upload expiry job on $name', (target) => {
  let t: TestApp;
  let lab: LabFixture;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    process.env.UPLOAD_CLEANUP_MINUTES = '15';
    process.env.UPLOAD_EXPIRY_HOURS = '24';
    t = await startApp(target);
    lab = await addLabFixture(t.app);
  });
  afterAll(async () => {
    process.env = savedEnv;
    await t.close();
  });

  const expiryJobs = () => t.app.ctx.db.select().from(jobs).where(eq(jobs.kind, EXPIRE_UPLOADS));
  const uploadFile = (id: string) => path.join(t.dataDir, 'files', 'uploads', id);

  it('is queued once per period, however many workers schedule it', async () => {
    const now = new Date('2026-11-22T10:07:00Z');
    const first = await scheduleUploadExpiry(t.app.ctx.db, PERIOD_MS, now);
    const second = await scheduleUploadExpiry(t.app.ctx.db, PERIOD_MS, new Date('2026-11-22T10:14:59Z'));
    expect(second).toBe(first);
    const rows = (await expiryJobs()).filter((j) => j.id === first);
    expect(rows).toHaveLength(1);
    expect(rows[0].runAt.toISOString()).toBe('2026-11-22T10:15:00.000Z');
    expect(rows[0].status).toBe('queued');
    const next = await scheduleUploadExpiry(t.app.ctx.db, PERIOD_MS, new Date('2026-11-22T10:15:00Z'));
    expect(next).not.toBe(first);
    expect(next).toBe(expiryJobId(Date.parse('2026-11-22T10:30:00Z')));
    expect(await scheduleUploadExpiry(t.app.ctx.db, 0, now)).toBeUndefined();
    await t.app.ctx.db.delete(jobs).where(eq(jobs.kind, EXPIRE_UPLOADS));
  });

  it('frees the bytes of an upload past its expiry, leaves a fresh one alone, and schedules the next run', async () => {
    const tus = tusClient(t.app, lab.member.token);
    const bytes = crypto.randomBytes(20_000);
    const old = await tus.create({ filename: 'abandoned.czi', size: bytes.length });
    const fresh = await tus.create({ filename: 'fresh.czi', size: bytes.length });
    for (const u of [old, fresh])
      expect((await tus.patch(u.location!, 0, bytes.subarray(0, 5_000))).statusCode).toBe(204);
    // The abandoned one began long ago: its time ran out an hour ago.
    await t.app.ctx.db
      .update(uploads)
      .set({ expiresAt: new Date(Date.now() - 3_600_000) })
      .where(eq(uploads.id, old.id!));
    expect(fs.existsSync(uploadFile(old.id!))).toBe(true);

    // The job of this period, as a worker start queues it; its time comes.
    const jobId = await scheduleUploadExpiry(t.app.ctx.db, PERIOD_MS);
    await t.app.ctx.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, jobId!));
    expect(await t.app.ctx.jobs.drain()).toBeGreaterThanOrEqual(1);
    const [ran] = await t.app.ctx.db.select().from(jobs).where(eq(jobs.id, jobId!));
    expect(ran.status).toBe('done');

    expect(fs.existsSync(uploadFile(old.id!))).toBe(false);
    expect(fs.existsSync(`${uploadFile(old.id!)}.json`)).toBe(false);
    expect((await tus.head(old.location!)).statusCode).toBe(410);
    const [oldPart] = await t.app.ctx.db.select().from(uploads).where(eq(uploads.id, old.id!));
    expect(oldPart.status).toBe('expired');
    const [oldGroup] = await t.app.ctx.db
      .select()
      .from(uploadGroups)
      .where(eq(uploadGroups.id, oldPart.groupId));
    expect(oldGroup.status).toBe('expired');

    expect(fs.statSync(uploadFile(fresh.id!)).size).toBe(5_000);
    const head = await tus.head(fresh.location!);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('5000');
    expect((await tus.patch(fresh.location!, 5_000, bytes.subarray(5_000))).statusCode).toBe(204);

    // The run queued the next period's run.
    const next = await t.app.ctx.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, EXPIRE_UPLOADS), eq(jobs.status, 'queued'), gt(jobs.runAt, new Date())));
    expect(next).toHaveLength(1);
    expect(next[0].runAt.getTime() % PERIOD_MS).toBe(0);
  });

  it('is scheduled by a worker starting after a restart', async () => {
    await t.app.ctx.db.delete(jobs).where(eq(jobs.kind, EXPIRE_UPLOADS));
    await t.app.close();
    t.app = await buildApp({ config: t.config, database: t.app.ctx.database });
    await t.app.ready();
    t.app.ctx.jobs.start();
    await expect
      .poll(async () => (await expiryJobs()).map((j) => j.status), { timeout: 20_000 })
      .toEqual(['queued']);
    await t.app.ctx.jobs.stop();
  });
});
