// MAX_SLIDE_PIXELS (src/server/slides/limits.ts): a slide declaring more level-0 pixels per scene than
// the limit is refused when opened, before any pixel is decoded; the default fits real scanners.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { SlideError } from '../../../src/server/slides/errors';
import { DEFAULT_MAX_SLIDE_PIXELS, maxSlidePixelsFromEnv } from '../../../src/server/slides/limits';
import { openSlide } from '../../../src/server/slides/registry';
import { farCornersCzi, tempDir } from './gen/slides';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the slide size limit', () => {
  it('refuses a small file declaring 300,000 × 100,000 pixels at once, with the reason', async () => {
    const bomb = farCornersCzi(dir, 300_000, 100_000);
    const started = Date.now();
    const error = await openSlide([bomb]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlideError);
    expect((error as SlideError).code).toBe('too_large');
    expect((error as SlideError).message).toBe(
      'Slide too large: 300,000 × 100,000 pixels is more than the 20,000,000,000 pixels per scene this server accepts',
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('opens the largest scanners’ scenes (200,000 × 100,000) by default, and a lower limit when set', async () => {
    const big = farCornersCzi(dir, 200_000, 100_000);
    const slide = await openSlide([big]);
    expect(slide.levels[0]).toMatchObject({ width: 200_000, height: 100_000 });
    await slide.close();
    await expect(openSlide([big], { maxPixels: 1_000_000 })).rejects.toMatchObject({ code: 'too_large' });
  });

  it('reads MAX_SLIDE_PIXELS from the environment', () => {
    expect(maxSlidePixelsFromEnv({})).toBe(DEFAULT_MAX_SLIDE_PIXELS);
    expect(maxSlidePixelsFromEnv({ MAX_SLIDE_PIXELS: '5000' })).toBe(5000);
    expect(() => maxSlidePixelsFromEnv({ MAX_SLIDE_PIXELS: 'lots' })).toThrow(/MAX_SLIDE_PIXELS/);
  });
});
