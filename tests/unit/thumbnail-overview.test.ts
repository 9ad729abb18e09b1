// The pyramid's child makes the thumbnail from the tiler's own small level (`overview`), so that a
// slide without small levels of its own is not read a second time. That thumbnail must be the one the
// reader's levels give (previews.ts `thumbnailJpeg`): same size, same picture within JPEG and
// resampling tolerance, fluorescence composited in the channels' colours.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { dziLevels } from '../../src/server/processing/dzi';
import { THUMBNAIL_MAX, thumbnailFrom, thumbnailJpeg } from '../../src/server/processing/previews';
import { writePyramid } from '../../src/server/processing/tiler';
import { openSlide } from '../../src/server/slides/registry';
import { FIXTURES } from './slides/fixtures';
import { mosaicCzi, tempDir } from './slides/gen/slides';

const nowhere = { put: async () => {} };
const dir = tempDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function pixels(jpeg: Buffer) {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

describe('the thumbnail from the pyramid', () => {
  it.each([
    'qptiff/brightfield.qptiff',
    'qptiff/fluor-4ch.qptiff',
    'czi/RGB-8bit.czi',
    'czi/DAPI_GFP.czi',
    'czi/1_tileregion.czi',
    'generated: an 8,192 × 6,144 CZI mosaic without a pyramid',
  ])('%s: the same picture as from the reader’s levels', async (file) => {
    const generated = file.startsWith('generated');
    const slide = await openSlide([generated ? await mosaicCzi(dir, 8192, 6144) : path.join(FIXTURES, file)]);
    try {
      const { width, height } = slide.levels[0];
      const result = await writePyramid(slide, nowhere, { overview: THUMBNAIL_MAX });
      // One layer per pyramid layer, at the smallest DZI level with a side of at least THUMBNAIL_MAX.
      const levels = dziLevels(width, height);
      const kept = levels.findLast((l) => Math.max(l.width, l.height) >= THUMBNAIL_MAX) ?? levels[0];
      expect(result.overview).toHaveLength(result.layers.length);
      for (const layer of result.overview!)
        expect([layer.width, layer.height, layer.data.length]).toEqual([
          kept.width,
          kept.height,
          kept.width * kept.height * layer.channels,
        ]);

      const ranges = result.layers.flatMap((l) => (l.range ? [l.range] : []));
      const fromReader = await pixels(await thumbnailJpeg(slide, ranges.length ? ranges : undefined));
      const fromPyramid = await pixels(
        await thumbnailFrom(
          result.overview!,
          slide.channels.map((c) => c.color),
        ),
      );
      expect([fromPyramid.width, fromPyramid.height, fromPyramid.channels]).toEqual([
        fromReader.width,
        fromReader.height,
        fromReader.channels,
      ]);
      let sum = 0;
      for (let i = 0; i < fromReader.data.length; i++)
        sum += Math.abs(fromReader.data[i] - fromPyramid.data[i]);
      expect(sum / fromReader.data.length).toBeLessThan(4);
    } finally {
      await slide.close();
    }
  });

  it('is not kept unless asked for', async () => {
    const slide = await openSlide([path.join(FIXTURES, 'czi/RGB-8bit.czi')]);
    const result = await writePyramid(slide, nowhere).finally(() => slide.close());
    expect(result.overview).toBeUndefined();
  });
});
