// Which reader must and must not open each shared fixture, and generic checks over every slide that opens
// (STYLE §5, after large_image's test_source_base): level order, sizes, pixel buffers, errors, close.

import { describe, expect, it } from 'vitest';
import { SlideError } from '../../../src/server/slides/errors';
import { SLIDE_EXTENSIONS } from '../../../src/api/slide-formats';
import { FORMATS, detectFormat, openSlide } from '../../../src/server/slides/registry';
import { FIXTURE_TABLE, FIXTURES, sha256, stddev, uploadFiles } from './fixtures';
import { join } from 'node:path';

describe('fixtures are the ones the facts were checked on', () => {
  for (const f of FIXTURE_TABLE)
    for (const [rel, hash] of Object.entries(f.sha256))
      it(`${rel} has its pinned SHA-256`, () => expect(sha256(join(FIXTURES, rel))).toBe(hash));
});

describe('reader × fixture table', () => {
  for (const f of FIXTURE_TABLE)
    for (const reader of FORMATS) {
      const must = reader.format === f.format;
      it(`${reader.format} ${must ? 'must' : 'must not'} take ${f.file}`, async () => {
        expect(await reader.detect(uploadFiles(f.file))).toBe(must);
      });
    }

  it('the registry lists the upload extensions of spec §5', () => {
    expect([...SLIDE_EXTENSIONS].sort()).toEqual(['.czi', '.mrxs', '.qptiff']);
  });

  it('no reader takes the label picture', async () => {
    const files = uploadFiles('labels/FIXTURE-QP-0001.png');
    expect(await detectFormat(files)).toBeUndefined();
    await expect(openSlide(files)).rejects.toThrow(
      'Unsupported slide format: FIXTURE-QP-0001.png is not a CZI, MRXS or QPTIFF file',
    );
  });
});

describe.each(FIXTURE_TABLE.filter((f) => f.format))('generic: $file', (f) => {
  it('opens with its own reader and keeps the interface promises', async () => {
    const slide = await openSlide(uploadFiles(f.file));
    try {
      expect(slide.format).toBe(f.format);
      // Levels: [0] full resolution, strictly shrinking, downsample consistent with the sizes.
      expect(slide.levels.length).toBeGreaterThan(0);
      expect(slide.levels[0].downsample).toBe(1);
      for (let i = 1; i < slide.levels.length; i++) {
        const [a, b] = [slide.levels[i - 1], slide.levels[i]];
        expect(b.width).toBeLessThan(a.width);
        expect(b.downsample).toBeGreaterThan(a.downsample);
        expect(Math.abs(slide.levels[0].width / b.downsample - b.width)).toBeLessThanOrEqual(1);
      }
      expect(slide.channels.length).toBeGreaterThan(0);
      if (slide.kind === 'brightfield') {
        expect(slide.channels).toHaveLength(1);
        expect(slide.bitsPerSample).toBe(8);
      }

      // The smallest level, whole, for every channel: right size and type, not one flat value.
      const last = slide.levels.length - 1;
      const { width, height } = slide.levels[last];
      for (let c = 0; c < slide.channels.length; c++) {
        const img = await slide.readRegion(last, 0, 0, width, height, c);
        const spp = slide.kind === 'brightfield' ? 3 : 1;
        expect([img.width, img.height, img.channels, img.bits]).toEqual([
          width,
          height,
          spp,
          slide.bitsPerSample,
        ]);
        expect(img.data).toBeInstanceOf(slide.bitsPerSample === 16 ? Uint16Array : Uint8Array);
        expect(img.data.length).toBe(width * height * spp);
        expect(stddev(img.data)).toBeGreaterThan(1);
      }

      // Outside the slide is background: white for brightfield, 0 for fluorescence.
      const out = await slide.readRegion(0, slide.levels[0].width + 10, 0, 4, 4);
      expect([...out.data].every((v) => v === (slide.kind === 'brightfield' ? 255 : 0))).toBe(true);

      // A region straddling the edge keeps the inside pixels.
      const edge = await slide.readRegion(0, -2, -2, 4, 4);
      const inside = await slide.readRegion(0, 0, 0, 2, 2);
      const spp = edge.channels;
      for (let y = 0; y < 2; y++)
        for (let x = 0; x < 2 * spp; x++)
          expect(edge.data[(y + 2) * 4 * spp + 2 * spp + x]).toBe(inside.data[y * 2 * spp + x]);

      // Bad requests fail with their catalogue messages.
      await expect(slide.readRegion(slide.levels.length, 0, 0, 1, 1)).rejects.toThrow(
        `Level ${slide.levels.length} does not exist: the slide has ${slide.levels.length} levels`,
      );
      if (slide.kind === 'fluorescence')
        await expect(slide.readRegion(0, 0, 0, 1, 1, slide.channels.length)).rejects.toBeInstanceOf(
          SlideError,
        );

      for (const name of slide.associatedNames) {
        const img = await slide.associated(name);
        expect(img?.channels).toBe(3);
        expect(img?.data.length).toBe((img?.width ?? 0) * (img?.height ?? 0) * 3);
      }
    } finally {
      await slide.close();
    }
  });
});
