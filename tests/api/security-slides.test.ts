// Slides and jobs (docs/security.md): a slide declaring more pixels than MAX_SLIDE_PIXELS is refused at
// once with the reason; a job that crashes its worker on every attempt ends failed instead of starting
// again on every restart; a processing image can be canceled by a super admin, the organization's
// administrators and its uploader, and nobody else. Through HTTP and the app's own job worker.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CANCELED_INFO } from '../../src/api/images';
import { images, jobs } from '../../src/server/db/schema';
import { ABANDONED_TEXT, claim, enqueue } from '../../src/server/jobs/queue';
import { tilesDir } from '../../src/server/processing/files';
import { PROCESS_IMAGE } from '../../src/server/jobs/kinds';
import { farCornersCzi } from '../unit/slides/gen/slides';
import {
  addLabFixture,
  bearer,
  dbTargets,
  memberToken,
  startApp,
  type LabFixture,
  type TestApp,
} from './helpers';
import { errorText } from '../../src/api/errors';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const [target] = await dbTargets();

describe(`slides and jobs on ${target.name}`, () => {
  let t: TestApp;
  let lab: LabFixture;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    // Low enough for a generated 5,000 × 5,000 slide to pass it; the default is unit-tested.
    process.env.MAX_SLIDE_PIXELS = '20000000';
    t = await startApp(target);
    lab = await addLabFixture(t.app);
  });
  afterAll(async () => {
    process.env = savedEnv;
    await t.close();
  });

  /** An image of `creator` in team A whose file is `source`, with its process-image job queued. */
  async function addImage(source: string, creator = lab.member) {
    const id = crypto.randomUUID();
    const name = path.basename(source);
    const dest = path.join(t.dataDir, 'files', 'images', id, name);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(source, dest);
    await t.app.ctx.db.insert(images).values({
      id,
      name,
      organizationId: creator.organizationId,
      creatorUserId: creator.id,
      storageKey: `images/${id}/${name}`,
    });
    const jobId = await enqueue(t.app.ctx.db, PROCESS_IMAGE, { imageId: id });
    return { id, jobId };
  }
  const imageRow = async (id: string) =>
    (await t.app.ctx.db.select().from(images).where(eq(images.id, id)))[0];
  const jobRow = async (id: string) => (await t.app.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0];
  const cancel = (id: string, token: string) =>
    t.app.inject({ method: 'POST', url: `/v2/images/${id}/cancel`, headers: bearer(token) });

  it('refuses a slide declaring more pixels than MAX_SLIDE_PIXELS at once, as an invalid file with the reason', async () => {
    const bomb = farCornersCzi(fs.mkdtempSync(path.join(t.dataDir, 'gen-')), 5000, 5000);
    const { id, jobId } = await addImage(bomb);
    await t.app.ctx.jobs.drain();
    const image = await imageRow(id);
    expect(image.status).toBe('failed');
    expect(image.info).toMatchObject({
      code: 'read_error',
      desc: 'Slide too large: 5,000 × 5,000 pixels is more than the 20,000,000 pixels per scene this server accepts',
    });
    // Not retried: it would be refused the same way.
    expect(await jobRow(jobId)).toMatchObject({ status: 'done', attempts: 1 });
    expect(fs.existsSync(tilesDir(t.dataDir, id))).toBe(false);
  });

  it('ends a job that crashed its worker on every attempt as failed with the reason, not run again', async () => {
    const { id, jobId } = await addImage(path.join(FIXTURES, 'czi/DAPI_GFP.czi'));
    // Three workers take it and die with it (their leases run out instead of being waited for).
    for (const dead of ['dead-1', 'dead-2', 'dead-3']) {
      expect((await claim(t.app.ctx.db, dead, [PROCESS_IMAGE], 60_000))?.id).toBe(jobId);
      await t.app.ctx.db
        .update(jobs)
        .set({ lockedUntil: new Date(Date.now() - 1000) })
        .where(eq(jobs.id, jobId));
    }
    await t.app.ctx.jobs.drain();
    expect(await jobRow(jobId)).toMatchObject({ status: 'failed', attempts: 3, lastError: ABANDONED_TEXT });
    const image = await imageRow(id);
    expect(image.status).toBe('failed');
    expect(image.info).toMatchObject({ code: 'processing_error', desc: ABANDONED_TEXT });
    // Another start of the worker does not take it again.
    expect(await t.app.ctx.jobs.drain()).toBe(0);
  });

  it('lets the uploader cancel a queued image: failed as Canceled, its job never run', async () => {
    const { id, jobId } = await addImage(path.join(FIXTURES, 'czi/DAPI_GFP.czi'));
    const res = await cancel(id, lab.member.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toMatchObject({ status: 'failed', info: CANCELED_INFO });
    expect(await jobRow(jobId)).toMatchObject({ status: 'failed' });
    await t.app.ctx.jobs.drain();
    expect((await imageRow(id)).status).toBe('failed');
    // Only while waiting or processing.
    const again = await cancel(id, lab.member.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(errorText('NOT_PROCESSING'));
  });

  it('cancels a running job only until its image is viewable; the pyramid is written behind it', async () => {
    // 4,000 × 4,000 is within this suite's limit, and takes seconds to tile, long after it is viewable.
    const big = farCornersCzi(fs.mkdtempSync(path.join(t.dataDir, 'gen-')), 4000, 4000);
    const { id, jobId } = await addImage(big);
    const running = t.app.ctx.jobs.drain();
    for (let i = 0; i < 2000 && (await imageRow(id)).status !== 'completed'; i++)
      await new Promise((r) => setTimeout(r, 5));
    const res = await cancel(id, lab.superAdmin.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(errorText('NOT_PROCESSING'));
    await running;
    expect((await imageRow(id)).status).toBe('completed');
    expect((await jobRow(jobId)).status).toBe('done');
    const pack = path.join(t.dataDir, 'files', 'derived', id, 'pyramid.pack');
    expect([fs.existsSync(pack), fs.existsSync(tilesDir(t.dataDir, id))]).toEqual([true, false]);
    expect(fs.readdirSync(path.join(t.dataDir, 'work'))).toEqual([]);
  });

  it('lets the organization’s administrator cancel, and nobody else of the lab', async () => {
    const { id } = await addImage(path.join(FIXTURES, 'czi/DAPI_GFP.czi'));
    const colleague = await memberToken(t.app, {
      email: 'colleague@lab.test',
      organizationId: lab.orgs.teamA,
      policies: ['uploadOrganizationImages', 'manageOrganizationStudies'],
    });
    for (const token of [colleague.token, lab.qc.token, lab.outsider.token]) {
      const res = await cancel(id, token);
      expect([403, 404]).toContain(res.statusCode);
    }
    expect((await imageRow(id)).status).toBe('created');
    const res = await cancel(id, lab.orgAdmin.token);
    expect(res.statusCode).toBe(200);
    expect((await imageRow(id)).info).toMatchObject(CANCELED_INFO);
  });
});
