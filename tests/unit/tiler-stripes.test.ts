// A slide wider than a few stripes is written stripe by stripe (tiler.ts, STRIPE_HALVINGS), so that
// what the tiler holds does not grow with the slide's width. Written in stripes, every tile and the
// thumbnail's level must be the bytes of one whole-width pass: here stripes are forced on slides of
// one and two stripes, with the thumbnail's level above the level kept whole and at it (below it: the
// 40,000-pixel slides of bench/pyramid.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { THUMBNAIL_MAX } from '../../src/server/processing/previews';
import { writePyramid } from '../../src/server/processing/tiler';
import { openSlide } from '../../src/server/slides/registry';
import { FIXTURES } from './slides/fixtures';
import { fluorescenceMosaicCzi, mosaicCzi, tempDir } from './slides/gen/slides';

const dir = tempDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Every file's digest, the overview's and the result's figures, written once or in stripes. */
async function pyramidOf(file: string, striped: boolean) {
  const slide = await openSlide([file]);
  try {
    const files = new Map<string, string>();
    const sink = {
      put: async (name: string, bytes: Buffer) =>
        void files.set(name, crypto.createHash('sha256').update(bytes).digest('hex')),
    };
    const { overview, ...result } = await writePyramid(slide, sink, {
      overview: THUMBNAIL_MAX,
      stripedAbove: striped ? 0 : Infinity,
    });
    const small = overview!.map((l) => ({
      ...l,
      data: crypto.createHash('sha256').update(l.data).digest('hex'),
    }));
    return { files, small, result };
  } finally {
    await slide.close();
  }
}

describe('a pyramid written in stripes', () => {
  it.each([
    ['qptiff/brightfield.qptiff', () => path.join(FIXTURES, 'qptiff/brightfield.qptiff')],
    ['qptiff/fluor-4ch.qptiff (four channel layers)', () => path.join(FIXTURES, 'qptiff/fluor-4ch.qptiff')],
    [
      'an 8,192 × 6,144 mosaic: two stripes, the thumbnail level above the one kept whole',
      () => mosaicCzi(dir, 8192, 6144),
    ],
    ['a 2,048 × 16,384 mosaic: the thumbnail level is the one kept whole', () => mosaicCzi(dir, 2048, 16384)],
    [
      'an 8,704 × 1,024 two-channel 16-bit mosaic: two stripes read piece by piece, per channel',
      async () => fluorescenceMosaicCzi(dir, 8704, 1024),
    ],
  ])('%s: the same bytes as one pass', async (_name, make) => {
    const file = await make();
    const once = await pyramidOf(file, false);
    const striped = await pyramidOf(file, true);
    expect(striped.result).toEqual(once.result);
    expect(striped.files.size).toBe(once.files.size);
    const differing = [...once.files].filter(([name, digest]) => striped.files.get(name) !== digest);
    expect(differing.map(([name]) => name)).toEqual([]);
    expect(striped.small).toEqual(once.small);
  });
});
