// The largest slide the server will read (docs/security.md "Slides and jobs"): a file declaring more
// level-0 pixels in one scene than MAX_SLIDE_PIXELS is refused when it is opened, before a pixel is
// decoded, so a small file declaring a vast image (a decompression bomb) never reaches the tiler.
//   MAX_SLIDE_PIXELS  level-0 pixels per scene (default 20,000,000,000: 200,000 × 100,000, beyond
//                     the largest whole-slide scanners' scenes)
import { SlideErrors } from './errors';
import type { Slide } from './types';

export const DEFAULT_MAX_SLIDE_PIXELS = 200_000 * 100_000;

export function maxSlidePixelsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.MAX_SLIDE_PIXELS;
  if (text === undefined || text === '') return DEFAULT_MAX_SLIDE_PIXELS;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new Error(`MAX_SLIDE_PIXELS must be a positive whole number, got "${text}"`);
  return n;
}

/** Throws SlideError 'too_large' when the slide's level 0 has more than `maxPixels` pixels. */
export function assertSlideSize(slide: Pick<Slide, 'levels'>, maxPixels: number): void {
  const { width, height } = slide.levels[0];
  if (width * height > maxPixels) throw SlideErrors.tooLarge(width, height, maxPixels);
}
