// A requested rigid alignment is computed by the 'align-rigid' job on real processed fixture slides:
// two uploads of the same slide align to the identity (active → fulfilled with outputData), and an
// image with no pixels ends the request failed with the reason, and so does an unexpected error once
// the queue gives up.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AlignmentFailureText, type RigidAlignmentOutput } from '../../src/api/alignments';
import { alignmentRigids, images, jobs, organizations } from '../../src/server/db/schema';
import { ALIGN_RIGID } from '../../src/server/jobs/kinds';
import { enqueue } from '../../src/server/jobs/queue';
import { PROCESS_IMAGE } from '../../src/server/jobs/kinds';
import { bearer, dbTargets, login, startApp, type TestApp } from './helpers';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const [target] = await dbTargets();

describe(`computed rigid alignments on ${target.name}`, () => {
  let t: TestApp;
  let token: string;
  let orgId: string;
  let first: string;
  let second: string;

  /** An image row for a copy of the brightfield fixture (2048×1536), processed to completed. */
  async function processed(): Promise<string> {
    const id = crypto.randomUUID();
    const dest = path.join(t.dataDir, 'files', 'images', id, 'brightfield.qptiff');
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'qptiff/brightfield.qptiff'), dest);
    await t.app.ctx.db.insert(images).values({
      id,
      name: 'brightfield.qptiff',
      organizationId: orgId,
      storageKey: `images/${id}/brightfield.qptiff`,
    });
    await enqueue(t.app.ctx.db, PROCESS_IMAGE, { imageId: id });
    await t.app.ctx.jobs.drain();
    return id;
  }

  beforeAll(async () => {
    t = await startApp(target);
    token = (await login(t.app)).access;
    [{ id: orgId }] = await t.app.ctx.db.select({ id: organizations.id }).from(organizations);
    first = await processed();
    second = await processed();
  });
  afterAll(() => t.close());

  const request = (referenceImageId: string, targetImageId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/alignments/rigids',
      headers: bearer(token),
      payload: { alignmentRigid: { inputData: { referenceImageId, targetImageId } } },
    });
  const read = async (id: string) =>
    (await t.app.inject({ method: 'GET', url: `/v2/alignments/rigids/${id}`, headers: bearer(token) })).json()
      .result;

  it('aligns two scans of one slide: active, then fulfilled with the identity', async () => {
    const res = await request(first, second);
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().result;
    expect(created.status).toBe('active');
    const [job] = await t.app.ctx.db.select().from(jobs).where(eq(jobs.kind, ALIGN_RIGID));
    expect(job.payload).toEqual({ alignmentId: created.id });

    await t.app.ctx.jobs.drain();
    const done = await read(created.id);
    expect(done.status, done.error).toBe('fulfilled');
    expect(done.error).toBeNull();
    const out = done.outputData as RigidAlignmentOutput;
    // Within 0.5 % of the slide's 2048-pixel side.
    const tolerance = 0.005 * 2048;
    expect(out.matrix[0][0]).toBeCloseTo(1, 3);
    expect(out.matrix[1][1]).toBeCloseTo(1, 3);
    expect(Math.abs(out.matrix[0][1])).toBeLessThan(0.002);
    expect(Math.abs(out.matrix[1][0])).toBeLessThan(0.002);
    expect(Math.abs(out.translation.x)).toBeLessThan(tolerance);
    expect(Math.abs(out.translation.y)).toBeLessThan(tolerance);
    expect(out.translation).toEqual({ x: out.matrix[0][2], y: out.matrix[1][2] });
    expect(Math.abs(out.rotationDegrees)).toBeLessThan(0.2);
    expect(out.mirrored).toBe(false);
    expect(out.score).toBeGreaterThan(0.9);
    expect(Date.parse(done.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

    const listed = await t.app.inject({
      method: 'GET',
      url: '/v2/alignments/rigids?status=fulfilled',
      headers: bearer(token),
    });
    expect(listed.json().result.map((a: { id: string }) => a.id)).toEqual([created.id]);
  });

  it('ends failed with the reason when an image has no pixels', async () => {
    const empty = crypto.randomUUID();
    await t.app.ctx.db.insert(images).values({ id: empty, name: 'waiting.qptiff', organizationId: orgId });
    const res = await request(first, empty);
    expect(res.statusCode, res.body).toBe(200);
    await t.app.ctx.jobs.drain();
    const failed = await read(res.json().result.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(AlignmentFailureText.targetNotReady);
    expect(failed.outputData).toBeNull();

    // Processed, then its tiles gone (a data folder restored without them): the same plain reason.
    fs.rmSync(path.join(t.dataDir, 'files', 'derived', second), { recursive: true, force: true });
    const again = await request(second, first);
    await t.app.ctx.jobs.drain();
    const gone = await read(again.json().result.id);
    expect(gone.status).toBe('failed');
    expect(gone.error).toBe(AlignmentFailureText.referenceNotReady);
  });

  it('ends failed with a plain reason when the job gives up on an unexpected error', async () => {
    // A thumbnail that is not a picture: decoding throws, which is no reason known to the aligner.
    const broken = await processed();
    fs.writeFileSync(path.join(t.dataDir, 'files', 'derived', broken, 'thumbnail.jpg'), 'not a jpeg');
    const id = crypto.randomUUID();
    await t.app.ctx.db.insert(alignmentRigids).values({
      id,
      organizationId: orgId,
      status: 'active',
      inputData: { referenceImageId: first, targetImageId: broken },
    });
    await enqueue(t.app.ctx.db, ALIGN_RIGID, { alignmentId: id }, { maxAttempts: 1 });
    await t.app.ctx.jobs.drain();
    const failed = await read(id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(AlignmentFailureText.unexpected);
  });
});
