// A big generated CZI mosaic (8192×6144 in 192 JPEG tiles, written to a temp dir, never committed): tiles
// anywhere at any level carry the known pattern, regions spanning tile seams are seamless, memory bounded.

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSlide } from '../../../src/server/slides/registry';
import type { Slide } from '../../../src/server/slides/types';
import { bigMosaicCzi, pattern, tempDir } from './gen/slides';

const W = 8192;
const H = 6144;
const dir = tempDir();
let slide: Slide;

beforeAll(async () => {
  slide = await openSlide([await bigMosaicCzi(dir, W, H, 512)]);
});
afterAll(async () => {
  await slide?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Mean absolute difference between a read region and the generator's pattern shrunk by `ds`. */
function error(
  data: ArrayLike<number>,
  stride: number,
  x: number,
  y: number,
  w: number,
  h: number,
  ds: number,
): number {
  let sum = 0;
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      // Pattern value at the centre of the level-0 box this pixel averages (the pattern is linear inside it).
      const want = pattern(
        1,
        1,
        Math.floor((x + i) * ds + (ds - 1) / 2),
        Math.floor((y + j) * ds + (ds - 1) / 2),
      );
      const o = (j * stride + i) * 3;
      for (let k = 0; k < 3; k++) sum += Math.abs(data[o + k] - want[k]);
    }
  return sum / (w * h * 3);
}

describe('big generated mosaic', () => {
  it('has levels down to ≤ 512 px, all but level 0 synthesized', () => {
    expect(slide.levels.map((l) => [l.width, l.height])).toEqual([
      [8192, 6144],
      [4096, 3072],
      [2048, 1536],
      [1024, 768],
      [512, 384],
    ]);
    expect(slide.levels.map((l) => l.stored)).toEqual([true, false, false, false, false]);
  });

  it('returns the pattern for tiles across seams at levels 0 to 2', async () => {
    for (const [level, x, y] of [
      [0, 384, 384],
      [0, 5000, 4000],
      [1, 1900, 1500],
      [2, 1000, 700],
    ]) {
      const img = await slide.readRegion(level, x, y, 256, 256);
      // Pattern wraps every 1024 px; skip regions that cross a wrap (steps there are by design).
      expect(error(img.data, 256, x, y, 64, 64, slide.levels[level].downsample)).toBeLessThan(6);
    }
  });

  it('reads 100 random level-0 tiles with bounded memory', async () => {
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 100; i++) {
      const x = Math.floor(Math.random() * (W / 256)) * 256;
      const y = Math.floor(Math.random() * (H / 256)) * 256;
      const img = await slide.readRegion(0, x, y, 256, 256);
      expect(img.data.length).toBe(256 * 256 * 3);
    }
    // The decoded-tile cache is capped at 64 MiB per slide.
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
  });
});
