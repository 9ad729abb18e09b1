// The QPTIFF reader's own tile decoding (tiff-blocks.ts) against geotiff's readRasters, sample for sample:
// on the shared fixtures' pages and on generated files with the layouts the fixtures lack (horizontal
// predictor, no compression, short last strip, padded edge tiles), whose pixels are also known exactly.

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromFile, type GeoTIFFImage } from 'geotiff';
import { afterAll, describe, expect, it } from 'vitest';
import { SlideError } from '../../../src/server/slides/errors';
import { SlideFile } from '../../../src/server/slides/file';
import { allocRaw } from '../../../src/server/slides/raw';
import { openSlide } from '../../../src/server/slides/registry';
import { readBlocks, tiffBlocks } from '../../../src/server/slides/tiff-blocks';
import type { RawImage } from '../../../src/server/slides/types';
import { FIXTURES } from './fixtures';
import { writeQptiff, type QpPage } from './gen/qptiff-writer';
import { tempDir } from './gen/slides';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rgb = (x: number, y: number, s: number) => x * 7 + y * 13 + s * 50 + ((x * y) % 97);
const grey16 = (c: number) => (x: number, y: number) => x * 300 + y * 17 + c * 1000 + ((x * y) % 1013);

const BRIGHTFIELD: QpPage[] = [
  {
    width: 300,
    height: 200,
    samples: 3,
    bits: 8,
    layout: { tile: 64 },
    compression: 8,
    predictor: 2,
    imageType: 'FullResolution',
    value: rgb,
  },
  {
    width: 150,
    height: 100,
    samples: 3,
    bits: 8,
    layout: { rows: 16 },
    compression: 8,
    predictor: 2,
    imageType: 'ReducedResolution',
    value: (x, y, s) => rgb(2 * x, 2 * y, s),
  },
  {
    width: 40,
    height: 30,
    samples: 3,
    bits: 8,
    layout: { rows: 7 },
    compression: 1,
    predictor: 1,
    imageType: 'Thumbnail',
    value: rgb,
  },
];
/** Two channels; each page the channel's own pattern at its level's scale. */
const FLUORESCENCE: QpPage[] = [
  ...[0, 1].map((c): QpPage => ({
    width: 200,
    height: 130,
    samples: 1,
    bits: 16,
    layout: { tile: 64 },
    compression: 8,
    predictor: 2,
    imageType: 'FullResolution',
    value: grey16(c),
  })),
  ...[0, 1].map((c): QpPage => ({
    width: 100,
    height: 65,
    samples: 1,
    bits: 16,
    layout: { rows: 10 },
    compression: 1,
    predictor: 2,
    imageType: 'ReducedResolution',
    value: (x, y) => grey16(c)(2 * x, 2 * y),
  })),
];

const generated = {
  'predictor-rgb.qptiff': BRIGHTFIELD,
  'predictor-16bit.qptiff': FLUORESCENCE,
} as const;
for (const [name, pages] of Object.entries(generated)) writeQptiff(join(dir, name), pages);

const files: Array<[name: string, path: string]> = [
  ['qptiff/brightfield.qptiff', join(FIXTURES, 'qptiff/brightfield.qptiff')],
  ['qptiff/fluor-4ch.qptiff', join(FIXTURES, 'qptiff/fluor-4ch.qptiff')],
  ...Object.keys(generated).map((n): [string, string] => [`generated ${n}`, join(dir, n)]),
];

/** geotiff's samples of `window`, as the RawImage the reader would produce. */
async function viaGeotiff(image: GeoTIFFImage, window: [number, number, number, number]): Promise<RawImage> {
  const samples = image.getSamplesPerPixel() === 3 ? [0, 1, 2] : [0];
  const data = await image.readRasters({ window, samples, interleave: true });
  const bits = Number(image.getBitsPerSample()) === 16 ? 16 : 8;
  return {
    width: window[2] - window[0],
    height: window[3] - window[1],
    channels: samples.length as 1 | 3,
    bits,
    data:
      bits === 16 ? Uint16Array.from(data as ArrayLike<number>) : Uint8Array.from(data as ArrayLike<number>),
  };
}

describe('QPTIFF blocks decoded natively equal geotiff', () => {
  it.each(files)('%s: every page, whole and in windows across blocks', async (_, path) => {
    const tiff = await fromFile(path);
    const source = await SlideFile.open(path);
    try {
      const count = await tiff.getImageCount();
      for (let i = 0; i < count; i++) {
        const image = await tiff.getImage(i);
        const blocks = await tiffBlocks(image, `page ${i}`);
        // Every page of these files is one the reader decodes itself: else this test compares nothing.
        expect(blocks, `page ${i}`).toBeDefined();
        const w = image.getWidth();
        const h = image.getHeight();
        const windows: Array<[number, number, number, number]> = [
          [0, 0, w, h],
          [Math.floor(w / 3), Math.floor(h / 5), w - 1, h],
          [1, 1, Math.min(w, 3), Math.min(h, 2)],
        ];
        for (const win of windows) {
          const want = await viaGeotiff(image, win);
          // Placed off the output's corner, as readRegion places a window clipped at the page's edge.
          const out = allocRaw(want.width + 3, want.height + 2, want.channels, want.bits, 7);
          await readBlocks(blocks!, source, win, out, 2, 1);
          const got = allocRaw(want.width, want.height, want.channels, want.bits);
          const c = want.channels;
          for (let y = 0; y < want.height; y++)
            got.data.set(
              out.data.subarray(((y + 1) * out.width + 2) * c, ((y + 1) * out.width + 2 + want.width) * c),
              y * want.width * c,
            );
          expect(Buffer.from(got.data.buffer).equals(Buffer.from(want.data.buffer)), `page ${i} ${win}`).toBe(
            true,
          );
          expect(out.data[0]).toBe(7); // the border stays as it was
        }
      }
    } finally {
      await source.close();
      await tiff.close();
    }
  });

  it.each(Object.entries(generated))('%s reads back the pixels written', async (name, pages) => {
    const slide = await openSlide([join(dir, name)]);
    try {
      const full = pages.filter((p) => p.imageType === 'FullResolution');
      const reduced = pages.filter((p) => p.imageType === 'ReducedResolution');
      expect(slide.levels.map((l) => l.width)).toEqual([full[0].width, reduced[0].width]);
      for (const [level, run] of [full, reduced].entries())
        for (const [channel, p] of run.entries()) {
          // A window over the page's right and bottom edges: the part outside is the reader's fill.
          const img = await slide.readRegion(level, 5, 3, p.width, p.height, channel);
          const mod = 2 ** p.bits;
          for (let y = 0; y < p.height - 3; y++)
            for (let x = 0; x < p.width - 5; x++)
              for (let s = 0; s < p.samples; s++) {
                const got = img.data[(y * img.width + x) * p.samples + s];
                if (got !== p.value(x + 5, y + 3, s) % mod)
                  expect(got, `level ${level} channel ${channel} (${x + 5}, ${y + 3}) sample ${s}`).toBe(
                    p.value(x + 5, y + 3, s) % mod,
                  );
              }
        }
      const thumb = pages.find((p) => p.imageType === 'Thumbnail');
      if (thumb) {
        const img = await slide.associated('thumbnail');
        expect(img?.data[(7 * thumb.width + 9) * 3 + 1]).toBe(thumb.value(9, 7, 1) % 256);
      }
    } finally {
      await slide.close();
    }
  });

  it('a tile whose deflate stream is damaged is a corrupt-file error naming the page and tile', async () => {
    const from = join(FIXTURES, 'qptiff/brightfield.qptiff');
    const tiff = await fromFile(from);
    const fd = (await tiff.getImage(0)).fileDirectory;
    const offset = Number(((await fd.loadValue('TileOffsets')) as ArrayLike<number>)[5]);
    const length = Number(((await fd.loadValue('TileByteCounts')) as ArrayLike<number>)[5]);
    await tiff.close();
    const bytes = Buffer.from(readFileSync(from));
    bytes.fill(0xa5, offset + (length >> 2), offset + length - 8);
    const path = join(dir, 'damaged.qptiff');
    writeFileSync(path, bytes);
    const slide = await openSlide([path]);
    try {
      const err = await slide.readRegion(0, 0, 0, 2048, 1536).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SlideError);
      expect((err as SlideError).code).toBe('corrupt');
      expect((err as SlideError).message).toMatch(
        /^Corrupt QPTIFF file: page 0 block 5 (does not inflate|holds)/,
      );
      // The tiles around it still read.
      const ok = await slide.readRegion(0, 0, 0, 256, 256);
      expect(ok.data.length).toBe(256 * 256 * 3);
    } finally {
      await slide.close();
    }
  });
});
