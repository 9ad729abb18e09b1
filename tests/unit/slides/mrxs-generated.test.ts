// MRXS written by gen/mrxs-writer.ts (the bench's MIRAX slides) read back by the reader: size, levels,
// and the pixels written at level 0 and at halved levels, across several Data files and index pages.

import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { openSlide } from '../../../src/server/slides/registry';
import { MrxsStreamWriter, mrxsGrid, type MrxsLayout } from './gen/mrxs-writer';
import { tempDir } from './gen/slides';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const S = 128;
const layout: MrxsLayout = { imagesX: 6, imagesY: 5, imageW: S, imageH: S, levels: 4, pixelUm: 0.5 };
const W = layout.imagesX * S;
const H = layout.imagesY * S;

/** The slide's level-0 colour at (x, y): smooth ramps, so JPEG error stays small. */
const colour = (x: number, y: number): [number, number, number] => [
  Math.floor((x * 255) / W),
  Math.floor((y * 255) / H),
  Math.floor(255 - ((x + y) * 255) / (W + H)),
];

/** Image (col, row) of `level`, side s: every 2^level-th level-0 pixel from its level-0 origin. */
function imagePixels(level: number, col: number, row: number, s: number): Buffer {
  const step = 2 ** level;
  const out = Buffer.alloc(s * s * 3);
  for (let j = 0; j < s; j++)
    for (let i = 0; i < s; i++) out.set(colour((col * s + i) * step, (row * s + j) * step), (j * s + i) * 3);
  return out;
}

/**
 * Writes the slide; `skip` leaves out level-0 image (col, row), `fill` is painted where nothing lies,
 * `side` changes the camera images' side.
 */
async function writeSlide(
  dataLimit: number,
  opts: { skip?: [number, number]; fill?: [number, number, number]; side?: number } = {},
): Promise<string> {
  const s = opts.side ?? S;
  const file = join(dir, `slide-${dataLimit}-${opts.skip ? 'gap' : 'full'}-${s}.mrxs`);
  const w = new MrxsStreamWriter(file, { ...layout, imageW: s, imageH: s, fillRgb: opts.fill }, dataLimit);
  for (let level = 0; level < layout.levels; level++) {
    const { cols, rows } = mrxsGrid(layout, level);
    for (let row = 0; row < rows; row++)
      for (let col = 0; col < cols; col++) {
        if (level === 0 && opts.skip?.[0] === col && opts.skip[1] === row) continue;
        const px = imagePixels(level, col, row, s);
        const jpg = await sharp(px, { raw: { width: s, height: s, channels: 3 } })
          .jpeg({ quality: 95 })
          .toBuffer();
        w.addImage(level, col, row, jpg);
      }
  }
  w.close();
  return file;
}

/** Mean absolute difference between `level`'s pixels and the colour function sampled at its scale. */
async function meanError(file: string, level: number): Promise<number> {
  const s = await openSlide([file]);
  try {
    const { width, height } = s.levels[level];
    const got = await s.readRegion(level, 0, 0, width, height);
    const step = 2 ** level;
    let err = 0;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const want = colour(x * step, y * step);
        for (let k = 0; k < 3; k++) err += Math.abs(got.data[(y * width + x) * 3 + k] - want[k]);
      }
    return err / (width * height * 3);
  } finally {
    await s.close();
  }
}

describe('generated MRXS', () => {
  it('opens with its size, halved levels and pixel size', async () => {
    const s = await openSlide([await writeSlide(1 << 30)]);
    expect(s.format).toBe('mrxs');
    expect(s.levels.map((l) => [l.width, l.height])).toEqual([
      [W, H],
      [W / 2, H / 2],
      [W / 4, H / 4],
      [W / 8, H / 8],
    ]);
    expect(s.levels.map((l) => l.downsample)).toEqual([1, 2, 4, 8]);
    expect(s.pixelSizeUm).toEqual({ x: 0.5, y: 0.5 });
    await s.close();
  });

  it('gives back the pixels written at level 0 and lower levels, from several data files', async () => {
    const file = await writeSlide(20_000);
    expect(
      readdirSync(file.replace(/\.mrxs$/, '')).filter((n) => n.startsWith('Data')).length,
    ).toBeGreaterThan(3);
    for (const level of [0, 1, 3]) expect(await meanError(file, level)).toBeLessThan(2);
  });

  it('joins four images at their shared corner', async () => {
    // A region across an image corner: its four quadrants come from four images.
    const s = await openSlide([await writeSlide(1 << 30)]);
    const r = await s.readRegion(0, S - 2, S - 2, 4, 4);
    const want = [colour(S - 2, S - 2), colour(S + 1, S - 2), colour(S - 2, S + 1), colour(S + 1, S + 1)];
    const got = [0, 3, 12, 15].map((p) => [...r.data.subarray(p * 3, p * 3 + 3)]);
    got.forEach((g, i) => g.forEach((v, k) => expect(Math.abs(v - want[i][k])).toBeLessThan(6)));
    await s.close();
  });

  it('paints the fill colour where an image is missing, and the images around it', async () => {
    const fill: [number, number, number] = [10, 200, 90];
    const s = await openSlide([await writeSlide(1 << 30, { skip: [2, 1], fill })]);
    const r = await s.readRegion(0, 2 * S - 1, S, S + 2, 1);
    const px = (i: number) => [...r.data.subarray(i * 3, i * 3 + 3)];
    for (const i of [1, S / 2, S]) expect(px(i)).toEqual(fill);
    for (const [i, x] of [
      [0, 2 * S - 1],
      [S + 1, 3 * S],
    ])
      colour(x, S).forEach((v, k) => expect(Math.abs(px(i)[k] - v)).toBeLessThan(6));
    await s.close();
  });

  it('reads levels whose images split into subtiles of fractional size (100-pixel images at ×8)', async () => {
    // Level 3's one image spans 8 × 8 level-0 images, 6 × 5 of them on the grid: cut into 12.5-pixel
    // subtiles, placed one by one.
    const file = await writeSlide(1 << 30, { side: 100 });
    const s = await openSlide([file]);
    expect(s.levels.map((l) => [l.width, l.height])).toEqual([
      [600, 500],
      [300, 250],
      [150, 125],
      [75, 62],
    ]);
    await s.close();
    for (const level of [2, 3]) expect(await meanError(file, level)).toBeLessThan(2.5);
  });
});
