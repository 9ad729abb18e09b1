// Every reader that can write a region into a given image (the tiler reads its bands this way) gives
// the pixels readRegion gives: at each level, across the slide's edge, on every fixture it opens.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSlide } from '../../../src/server/slides/registry';
import type { RawImage, Slide } from '../../../src/server/slides/types';
import { FIXTURES, FIXTURE_TABLE } from './fixtures';

const bytes = (img: RawImage) => Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);

/** Regions of each level: the top left, one across the right and bottom edges, one inside. */
function regions(s: Slide): Array<[number, number, number, number, number]> {
  return s.levels.flatMap((l, level) => {
    const w = Math.min(l.width, 300);
    const h = Math.min(l.height, 200);
    return [
      [level, 0, 0, w, h],
      [level, l.width - Math.ceil(w / 2), l.height - Math.ceil(h / 2), w, h],
      [level, Math.floor(l.width / 3), Math.floor(l.height / 3), Math.ceil(w / 2), Math.ceil(h / 2)],
    ] as Array<[number, number, number, number, number]>;
  });
}

describe('readRegionInto', () => {
  for (const f of FIXTURE_TABLE.filter((x) => x.format)) {
    it(`equals readRegion on ${f.file}`, async () => {
      const s = await openSlide([join(FIXTURES, f.file)]);
      try {
        expect(s.readRegionInto).toBeDefined();
        for (const [level, x, y, w, h] of regions(s)) {
          const want = await s.readRegion(level, x, y, w, h);
          const into: RawImage = { ...want, data: want.data.slice().fill(7) };
          await s.readRegionInto!(level, x, y, into);
          expect(Buffer.compare(bytes(into), bytes(want))).toBe(0);
        }
      } finally {
        await s.close();
      }
    });
  }
});
