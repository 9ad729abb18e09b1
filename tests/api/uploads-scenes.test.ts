// Every scene: a CZI of three scenes uploaded through tus becomes three images on the slide its label
// names, each with its own size, thumbnail and tiles; the upload group's answer lists them (`images`)
// and keeps `image` the first; the uploader's label repair joins every scene's image to the slide.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { images } from '../../src/server/db/schema';
import { THREE_SCENES, threeSceneCzi } from '../unit/slides/gen/scenes';
import { cziXml, writeCzi } from '../unit/slides/gen/czi-writer';
import { COMP, PT, tempDir } from '../unit/slides/gen/slides';
import {
  addLabFixture,
  bearer,
  dbTargets,
  insertImageRow,
  startApp,
  type LabFixture,
  type TestApp,
} from './helpers';
import { tusClient } from './uploads-tus';

const [target] = await dbTargets();

describe(`a 3-scene CZI upload on ${target.name}`, () => {
  let t: TestApp;
  let lab: LabFixture;
  const dir = tempDir();
  beforeAll(async () => {
    t = await startApp(target);
    lab = await addLabFixture(t.app);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(lab.member.token) });

  /** Uploads `file` as the member, runs every queued job, and answers the upload group. */
  async function uploadAndProcess(file: string) {
    const groupId = crypto.randomUUID();
    await tusClient(t.app, lab.member.token).upload({
      filename: 'sections.czi',
      groupId,
      bytes: fs.readFileSync(file),
    });
    await t.app.ctx.jobs.drain();
    const res = await get(`/v2/upload-groups/${groupId}`);
    expect(res.statusCode).toBe(200);
    return { groupId, group: res.json().result };
  }

  it('makes one image per scene on the slide its label names, each its own size', async () => {
    const slide = await insertImageRow(t.app, { organizationId: lab.orgs.teamA, simpleId: 'SCNE2345' });
    const { group } = await uploadAndProcess(await threeSceneCzi(dir, 'SCNE2345', 'labelled.czi'));
    expect(group.images).toHaveLength(3);
    expect(group.image).toEqual(group.images[0]);
    for (const img of group.images)
      expect(img).toMatchObject({
        status: 'completed',
        scanGroupId: slide.scanGroupId,
        code: 'label_applied',
      });

    const rows = await t.app.ctx.db.select().from(images).where(eq(images.scanGroupId, slide.scanGroupId!));
    const scenes = rows.filter((r) => r.id !== slide.imageId).sort((a, b) => a.scene - b.scene);
    expect(scenes.map((r) => [r.id, r.scene, r.name])).toEqual(
      group.images.map((img: { id: string }, i: number) => [img.id, i, `sections.czi (scene ${i + 1} of 3)`]),
    );
    expect(new Set(scenes.map((r) => r.storageKey)).size).toBe(1);
    expect(scenes.map((r) => r.fileSize !== null)).toEqual([true, false, false]);

    // The slide's image list (the viewer's image selector) has them in scene order, after the older one.
    const list = await get(`/v2/images?scanGroupId=${slide.scanGroupId}&orderDirection=asc`);
    expect(list.json().result.map((i: { id: string }) => i.id)).toEqual([
      slide.imageId,
      ...group.images.map((i: { id: string }) => i.id),
    ]);

    for (const [i, fact] of THREE_SCENES.entries()) {
      const id = group.images[i].id;
      const manifest = (await get(`/v2/images/${id}/tiles/layers.json`)).json();
      expect([manifest.width, manifest.height]).toEqual([fact.width, fact.height]);
      const thumb = await get(`/v2/images/${id}/tiles/thumbnail.jpg`);
      expect(thumb.statusCode).toBe(200);
      const meta = await sharp(thumb.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([fact.width, fact.height]); // ≤ 512: full size
    }
  });

  it('applies a repaired label to every scene of the upload', async () => {
    const { groupId, group } = await uploadAndProcess(await threeSceneCzi(dir));
    expect(group.images.map((i: { code: string }) => i.code)).toEqual(Array(3).fill('label_does_not_exist'));
    const slide = await insertImageRow(t.app, { organizationId: lab.orgs.teamA, simpleId: 'RPRD2345' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/v2/upload-groups/${groupId}/label`,
      headers: bearer(lab.member.token),
      payload: { simpleId: 'RPRD2345' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.images).toHaveLength(3);
    for (const img of res.json().result.images)
      expect(img).toMatchObject({ scanGroupId: slide.scanGroupId, code: 'label_applied' });
  });

  it('fails only the scene that has no full-resolution pixels, with the reason', async () => {
    const px = new Uint8Array(32 * 32 * 3).fill(90);
    const pyramidOnly = { w: 64, h: 64, storedW: 32, storedH: 32 };
    const file = path.join(dir, 'empty-scene.czi');
    fs.writeFileSync(
      file,
      writeCzi(
        [
          { x: 0, y: 0, w: 32, h: 32, s: 0, pixelType: PT.Bgr24, compression: COMP.None, data: px },
          { x: 900, y: 0, ...pyramidOnly, s: 1, pixelType: PT.Bgr24, compression: COMP.None, data: px },
        ],
        cziXml(),
      ),
    );
    const { group } = await uploadAndProcess(file);
    expect(group.images.map((i: { status: string }) => i.status)).toEqual(['completed', 'failed']);
    expect(group.images[1]).toMatchObject({
      code: 'read_error',
      desc: 'CZI scene 2 has no full-resolution subblocks',
    });
  });

  it('runs again without adding scene images twice', async () => {
    const { group } = await uploadAndProcess(await threeSceneCzi(dir, undefined, 'again.czi'));
    const first = group.images[0].id as string;
    await t.app.ctx.db.update(images).set({ status: 'created' }).where(eq(images.id, first));
    const { enqueue } = await import('../../src/server/jobs/queue');
    const { PROCESS_IMAGE } = await import('../../src/server/jobs/kinds');
    await enqueue(t.app.ctx.db, PROCESS_IMAGE, { imageId: first });
    await t.app.ctx.jobs.drain();
    const [{ storageKey }] = await t.app.ctx.db.select().from(images).where(eq(images.id, first));
    const same = await t.app.ctx.db.select().from(images).where(eq(images.storageKey, storageKey!));
    expect(same.map((r) => r.scene).sort()).toEqual([0, 1, 2]);
  });
});
