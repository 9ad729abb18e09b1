// Tiles of an image still being processed: the job marks the image viewable, then waits in its
// onViewable hook (before the pyramid is written) while this test asks the server for the image's
// layers.json, DZI descriptor and tiles, which are cut on demand from the original. Once the job has
// written the pyramid, the same tiles come from its files and must match the cut ones within JPEG
// tolerance, on every fixture format; tiles outside a level answer 404, an unreadable part of the
// slide a clear 500, and the server goes on serving.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TileText, type LayersManifest } from '../../src/api/tiles';
import { images, organizations } from '../../src/server/db/schema';
import type { JobRow } from '../../src/server/jobs/queue';
import { dziLevels } from '../../src/server/processing/dzi';
import { tilesDir } from '../../src/server/processing/files';
import { processImageHandler } from '../../src/server/processing/process-image';
import { storageFor } from '../../src/server/storage';
import { farCornersCzi } from '../unit/slides/gen/slides';
import { bearer, dbTargets, login, startApp, type TestApp } from './helpers';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const [target] = await dbTargets();

const MRXS = [
  ['mrxs/slide.mrxs', 'slide.mrxs'],
  ['mrxs/slide/Slidedat.ini', 'slide/Slidedat.ini'],
  ['mrxs/slide/Index.dat', 'slide/Index.dat'],
  ['mrxs/slide/Data0000.dat', 'slide/Data0000.dat'],
] as const;

const CASES: Array<{ name: string; files: ReadonlyArray<readonly [string, string]> }> = [
  { name: 'brightfield QPTIFF', files: [['qptiff/brightfield.qptiff', 'brightfield.qptiff']] },
  { name: 'fluorescence QPTIFF', files: [['qptiff/fluor-4ch.qptiff', 'fluor-4ch.qptiff']] },
  { name: 'MIRAX folder', files: MRXS },
  { name: 'RGB CZI', files: [['czi/RGB-8bit.czi', 'RGB-8bit.czi']] },
  {
    name: 'fluorescence CZI mosaic with a pyramid subblock',
    files: [['czi/1_tileregion.czi', '1_tileregion.czi']],
  },
];

/** Mean and largest absolute difference of two JPEG tiles' samples (same size required). */
async function difference(a: Buffer, b: Buffer): Promise<{ mean: number; size: string }> {
  const [x, y] = await Promise.all(
    [a, b].map((j) => sharp(j).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true })),
  );
  expect([x.info.width, x.info.height]).toEqual([y.info.width, y.info.height]);
  let sum = 0;
  for (let i = 0; i < x.data.length; i++) sum += Math.abs(x.data[i] - y.data[i]);
  return { mean: sum / x.data.length, size: `${x.info.width}x${x.info.height}` };
}

describe(`tiles cut on demand while the pyramid is written, on ${target.name}`, () => {
  let t: TestApp;
  let token: string;
  let orgId: string;
  beforeAll(async () => {
    t = await startApp(target);
    token = (await login(t.app)).access;
    [{ id: orgId }] = await t.app.ctx.db.select({ id: organizations.id }).from(organizations);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  /** Stores the files as an upload would and adds the image (status created). */
  async function store(files: ReadonlyArray<readonly [string, string]>): Promise<string> {
    const id = crypto.randomUUID();
    for (const [from, to] of files) {
      const dest = path.join(t.dataDir, 'files', 'images', id, to);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(path.resolve(FIXTURES, from), dest);
    }
    await t.app.ctx.db
      .insert(images)
      .values({ id, name: files[0][1], organizationId: orgId, storageKey: `images/${id}/${files[0][1]}` });
    return id;
  }

  /** Runs the image's process-image job here, calling `whileViewable` before its pyramid is written. */
  function processWith(imageId: string, whileViewable: () => Promise<void>): Promise<void> {
    const handler = processImageHandler({
      db: t.app.ctx.db,
      dataDir: t.dataDir,
      storage: storageFor({ dataDir: t.dataDir, expiryMs: 0 }),
      log: t.app.log,
      onViewable: whileViewable,
    });
    const job: JobRow = {
      id: crypto.randomUUID(),
      kind: 'process-image',
      payload: { imageId },
      status: 'running',
      attempts: 1,
      maxAttempts: 1,
      runAt: new Date(),
      lockedBy: 'test',
      lockedUntil: null,
      lastError: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    return handler(job, new AbortController().signal);
  }

  /** The first and the last tile of the four largest levels: what the test compares. */
  function tilesOf(m: LayersManifest, layer: string): string[] {
    return dziLevels(m.width, m.height)
      .slice(0, 4)
      .flatMap((l) => [
        `${layer}_files/${l.level}/0_0.jpeg`,
        `${layer}_files/${l.level}/${l.cols - 1}_${l.rows - 1}.jpeg`,
      ]);
  }

  for (const c of CASES) {
    it(`serves the ${c.name}'s tiles while processing, equal to the pyramid's`, async () => {
      const id = await store(c.files);
      const cut = new Map<string, Buffer>();
      let manifest: LayersManifest | undefined;
      await processWith(id, async () => {
        const dir = tilesDir(t.dataDir, id);
        expect(fs.existsSync(dir)).toBe(false); // no pyramid yet: everything below is cut
        expect(fs.existsSync(path.join(t.dataDir, 'files', 'derived', id, 'pyramid.pack'))).toBe(false);
        const image = (await get(`/v2/images/${id}`)).json().result;
        expect([image.status, image.displayStatus]).toEqual(['completed', 'completed']);
        const m = (await get(`/v2/images/${id}/tiles/layers.json`)).json() as LayersManifest;
        manifest = m;
        expect(m.width).toBeGreaterThan(0);
        const layer = m.layers[m.layers.length - 1].name;
        const dzi = await get(`/v2/images/${id}/tiles/${layer}.dzi`);
        expect(dzi.statusCode).toBe(200);
        expect(dzi.body).toContain(`<Size Width="${m.width}" Height="${m.height}"/>`);
        for (const file of tilesOf(m, layer)) {
          const res = await get(`/v2/images/${id}/tiles/${file}`);
          expect(res.statusCode, file).toBe(200);
          expect(res.headers['content-type']).toBe('image/jpeg');
          cut.set(file, res.rawPayload);
        }
        // Outside the full-resolution level, and a level the slide does not have.
        const top = dziLevels(m.width, m.height)[0];
        expect(
          (await get(`/v2/images/${id}/tiles/${layer}_files/${top.level}/${top.cols}_0.jpeg`)).statusCode,
        ).toBe(404);
        expect(
          (await get(`/v2/images/${id}/tiles/${layer}_files/${top.level + 1}/0_0.jpeg`)).statusCode,
        ).toBe(404);
        expect((await get(`/v2/images/${id}/tiles/nolayer_files/${top.level}/0_0.jpeg`)).statusCode).toBe(
          404,
        );
        expect((await get(`/v2/images/${id}/tiles/thumbnail.jpg`)).statusCode).toBe(200);
      });
      expect(manifest).toBeDefined();
      const top = dziLevels(manifest!.width, manifest!.height)[0].level;
      expect((await get(`/v2/images/${id}/tiles/layers.json`)).json()).toEqual(manifest);
      for (const [file, body] of cut) {
        expect(fs.existsSync(path.join(t.dataDir, 'files', 'derived', id, 'pyramid.pack')), file).toBe(true);
        const res = await get(`/v2/images/${id}/tiles/${file}`);
        expect(res.statusCode).toBe(200);
        const d = await difference(body, res.rawPayload);
        // Full resolution is the same pixels through the same encoder. A lower level comes from the
        // file's own level (a scanner's downsampling: a CZI pyramid subblock, QPTIFF reduced pages,
        // MRXS levels) or the reader's box shrink, against the tiler's 2×2 averages of full resolution
        // (measured: ≤ 3 from a box shrink, up to 9 from 1_tileregion's pyramid subblock).
        const full = file.includes(`_files/${top}/`);
        expect(d.mean, `${file} ${d.size}`).toBeLessThan(full ? 1 : 12);
      }
      // Once the pyramid is complete, what it lacks does not exist.
      const outside = `${manifest!.layers[0].name}_files/${top}/999_0.jpeg`;
      expect((await get(`/v2/images/${id}/tiles/${outside}`)).statusCode).toBe(404);
    });
  }

  it('answers 503 for a tile too costly to cut from a slide without a pyramid, until the pyramid has it', async () => {
    // 4,200² of full-resolution subblocks only: a tile of DZI level 8 (×32) covers 17.6 MP of them.
    const file = farCornersCzi(fs.mkdtempSync(path.join(t.dataDir, 'gen-')), 4200, 4200);
    const id = await store([[file, 'far.czi']]);
    const costly = `/v2/images/${id}/tiles/rgb_files/8/0_0.jpeg`;
    await processWith(id, async () => {
      const res = await get(costly);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ message: TileText.notReady, code: 'TILE_NOT_READY' });
      expect((await get(`/v2/images/${id}/tiles/rgb_files/9/0_0.jpeg`)).statusCode).toBe(200); // 16.5 MP
      expect((await get(`/v2/images/${id}/tiles/rgb_files/13/16_16.jpeg`)).statusCode).toBe(200);
    });
    expect((await get(costly)).statusCode).toBe(200);
  });

  it('answers a clear 500 for a part of the slide that cannot be read, and goes on serving', async () => {
    const id = await store(MRXS);
    let answered = false;
    const job = processWith(id, async () => {
      // The camera images of the data file become zeros after the image is viewable.
      const data = path.join(t.dataDir, 'files', 'images', id, 'slide', 'Data0000.dat');
      fs.writeFileSync(data, Buffer.alloc(fs.statSync(data).size));
      const m = (await get(`/v2/images/${id}/tiles/layers.json`)).json() as LayersManifest;
      const top = dziLevels(m.width, m.height)[0];
      const res = await get(`/v2/images/${id}/tiles/rgb_files/${top.level}/1_1.jpeg`);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ message: TileText.unreadable, code: 'TILE_UNREADABLE' });
      expect(res.body).not.toContain(t.dataDir);
      expect((await get(`/v2/images/${id}/tiles/rgb.dzi`)).statusCode).toBe(200);
      answered = true;
    });
    await expect(job).rejects.toThrow(); // the pyramid cannot be written either: the queue retries
    expect(answered).toBe(true);
    const [row] = await t.app.ctx.db.select().from(images).where(eq(images.id, id));
    expect(row.status).toBe('completed'); // still viewable: its readable tiles are served
  });
});
