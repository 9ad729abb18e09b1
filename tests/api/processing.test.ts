// Slide processing end to end on the real readers and fixtures: each fixture processes to completed
// with its README's facts, is linked to the slide its label names, and its tiles are served.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { images, organizations, scanGroups } from '../../src/server/db/schema';
import { enqueue } from '../../src/server/jobs/queue';
import { PROCESS_IMAGE } from '../../src/server/jobs/kinds';
import { bearer, dbTargets, login, startApp, type TestApp } from './helpers';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const [target] = await dbTargets();

interface Case {
  name: string;
  files: Array<[from: string, to: string]>;
  main: string;
  simpleId?: string;
  expect: {
    scanType: string;
    channels: string[];
    pixelScale?: number;
    layers: number;
    width: number;
    height: number;
  };
}

const CASES: Case[] = [
  {
    name: 'brightfield QPTIFF',
    files: [['qptiff/brightfield.qptiff', 'brightfield.qptiff']],
    main: 'brightfield.qptiff',
    simpleId: 'FIXTURE-QP-0002',
    expect: {
      scanType: 'brightfield',
      channels: ['Brightfield'],
      pixelScale: 0.5,
      layers: 1,
      width: 2048,
      height: 1536,
    },
  },
  {
    name: 'fluorescence QPTIFF',
    files: [['qptiff/fluor-4ch.qptiff', 'fluor-4ch.qptiff']],
    main: 'fluor-4ch.qptiff',
    simpleId: 'FIXTURE-QP-0001',
    expect: {
      scanType: 'autofluorescence',
      channels: ['DAPI', 'Opal 520', 'Opal 570', 'Opal 690'],
      pixelScale: 0.5,
      layers: 4,
      width: 1024,
      height: 768,
    },
  },
  {
    name: 'MIRAX folder',
    files: [
      ['mrxs/slide.mrxs', 'slide.mrxs'],
      ['mrxs/slide/Slidedat.ini', 'slide/Slidedat.ini'],
      ['mrxs/slide/Index.dat', 'slide/Index.dat'],
      ['mrxs/slide/Data0000.dat', 'slide/Data0000.dat'],
    ],
    main: 'slide.mrxs',
    simpleId: 'FIXTURE-MX-0001',
    expect: {
      scanType: 'brightfield',
      channels: ['Brightfield'],
      pixelScale: 0.25,
      layers: 1,
      width: 1024,
      height: 1024,
    },
  },
  {
    name: 'RGB CZI without a label',
    files: [['czi/RGB-8bit.czi', 'RGB-8bit.czi']],
    main: 'RGB-8bit.czi',
    expect: { scanType: 'brightfield', channels: [], layers: 1, width: 0, height: 0 },
  },
];

describe(`slide processing on ${target.name}`, () => {
  let t: TestApp;
  let token: string;
  let orgId: string;
  beforeAll(async () => {
    t = await startApp(target);
    token = (await login(t.app)).access;
    [{ id: orgId }] = await t.app.ctx.db.select({ id: organizations.id }).from(organizations);
  });
  afterAll(() => t.close());

  async function upload(c: Case) {
    const id = crypto.randomUUID();
    for (const [from, to] of c.files) {
      const dest = path.join(t.dataDir, 'files', 'images', id, to);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(path.join(FIXTURES, from), dest);
    }
    await t.app.ctx.db.insert(images).values({
      id,
      name: c.main,
      organizationId: orgId,
      storageKey: `images/${id}/${c.main}`,
    });
    await enqueue(t.app.ctx.db, PROCESS_IMAGE, { imageId: id });
    await t.app.ctx.jobs.drain();
    const [row] = await t.app.ctx.db.select().from(images).where(eq(images.id, id));
    return row;
  }

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  for (const c of CASES) {
    it(`processes the ${c.name} to completed, linked to its slide, with tiles`, async () => {
      let slideId: string | undefined;
      if (c.simpleId) {
        slideId = crypto.randomUUID();
        await t.app.ctx.db
          .insert(scanGroups)
          .values({ id: slideId, simpleId: c.simpleId, organizationId: orgId });
      }
      const image = await upload(c);
      expect(image.status).toBe('completed');
      expect(image.displayStatus).toBe('completed');
      expect(image.scanType).toBe(c.expect.scanType);
      if (c.expect.channels.length) expect(image.channels.map((ch) => ch.name)).toEqual(c.expect.channels);
      if (c.expect.pixelScale) expect(image.pixelScale).toBeCloseTo(c.expect.pixelScale, 5);
      if (slideId) {
        expect(image.scanGroupId).toBe(slideId);
        expect(image.info.code).toBe('label_applied');
      } else {
        expect(image.scanGroupId).toBeNull();
        expect(image.info.code).toBe('label_does_not_exist');
      }

      const manifest = (await get(`/v2/images/${image.id}/tiles/layers.json`)).json();
      expect(manifest.layers).toHaveLength(c.expect.layers);
      if (c.expect.width)
        expect([manifest.width, manifest.height]).toEqual([c.expect.width, c.expect.height]);
      const dzi = await get(`/v2/images/${image.id}/tiles/${manifest.layers[0].name}.dzi`);
      expect(dzi.body).toContain(`Width="${manifest.width}"`);
      const maxLevel = Math.ceil(Math.log2(Math.max(manifest.width, manifest.height)));
      const tile = await get(
        `/v2/images/${image.id}/tiles/${manifest.layers[0].name}_files/${maxLevel}/0_0.jpeg`,
      );
      expect(tile.statusCode).toBe(200);
      expect(tile.headers['cache-control']).toContain('immutable');
      const meta = await sharp(tile.rawPayload).metadata();
      expect(meta.width).toBe(Math.min(255, manifest.width));
      // Tissue, not a blank tile: the pixels vary.
      const stats = await sharp(tile.rawPayload).stats();
      expect(Math.max(...stats.channels.map((s) => s.stdev))).toBeGreaterThan(1);
      const again = await t.app.inject({
        method: 'GET',
        url: `/v2/images/${image.id}/tiles/thumbnail.jpg`,
        headers: { ...bearer(token), 'if-none-match': String(tile.headers.etag) },
      });
      expect(again.statusCode).toBe(200);
    });
  }

  it('composites the fluorescence thumbnail in the channels’ colours, not black', async () => {
    const image = await upload({ ...CASES[1], simpleId: undefined });
    const res = await get(`/v2/images/${image.id}/tiles/thumbnail.jpg`);
    expect(res.statusCode).toBe(200);
    const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([512, 384]);
    const px = info.width * info.height;
    let sum = 0;
    // Saturated pixels by hue: the fixture's DAPI blue, Opal 520 green, Opal 570 yellow, Opal 690 red.
    const hues = { blue: 240, green: 120, yellow: 60, red: 0 };
    const counts = { blue: 0, green: 0, yellow: 0, red: 0 };
    for (let i = 0; i < px; i++) {
      const [r, g, b] = [data[i * 3], data[i * 3 + 1], data[i * 3 + 2]];
      sum += (r + g + b) / 3;
      const max = Math.max(r, g, b);
      const chroma = max - Math.min(r, g, b);
      if (chroma < 100) continue;
      const h =
        max === r
          ? (60 * ((g - b) / chroma) + 360) % 360
          : max === g
            ? 60 * ((b - r) / chroma) + 120
            : 60 * ((r - g) / chroma) + 240;
      for (const [name, hue] of Object.entries(hues) as Array<[keyof typeof hues, number]>) {
        const d = Math.min(Math.abs(h - hue), 360 - Math.abs(h - hue));
        if (d <= 15) counts[name]++;
      }
    }
    expect(sum / px).toBeGreaterThan(30);
    for (const [name, n] of Object.entries(counts)) expect(n / px, name).toBeGreaterThan(0.01);
  });

  for (const file of [
    'DAPI_GFP.czi',
    'newCZI_compressed.czi',
    'CellDivision_T3_Z5_CH2_X240_Y170_comp1.czi',
    '1_tileregion.czi',
  ])
    it(`processes ${file} to completed`, async () => {
      const image = await upload({
        name: file,
        files: [[`czi/${file}`, file]],
        main: file,
        expect: { scanType: '', channels: [], layers: 0, width: 0, height: 0 },
      });
      expect(image.status, JSON.stringify(image.info)).toBe('completed');
      expect(image.displayUUIDs.length).toBe(image.channels.length);
      if (file === 'DAPI_GFP.czi') expect(image.scanType).toBe('autofluorescence');
    });

  it('ends a file that is not a slide in failed with the reader’s reason, and goes on', async () => {
    const image = await upload({
      name: 'fake',
      files: [['labels/FIXTURE-QP-0001.png', 'not-a-slide.czi']],
      main: 'not-a-slide.czi',
      expect: { scanType: '', channels: [], layers: 0, width: 0, height: 0 },
    });
    expect(image.status).toBe('failed');
    expect(image.info.code).toBe('read_error');
    expect(image.info.desc).toMatch(/CZI/);
    const denied = await t.app.inject({
      method: 'GET',
      url: `/v2/images/${image.id}/tiles/../../etc/passwd`,
    });
    expect(denied.statusCode).toBeGreaterThanOrEqual(400);
    expect(denied.statusCode).toBeLessThan(500);
  });
});
