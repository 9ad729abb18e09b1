// The ordered list of slide formats and the one entry point `openSlide(files)`.
// Adding a format: write `<vendor>.ts` exporting a SlideFormatReader, add one line to FORMATS (STYLE §2).
// Order matters: specific vendors first, anything TIFF-generic last (QPTIFF detects by its XML, not by TIFF).

import { basename } from 'node:path';
import { cziReader } from './czi';
import { SlideErrors } from './errors';
import { assertSlideSize, DEFAULT_MAX_SLIDE_PIXELS } from './limits';
import { mrxsReader } from './mrxs';
import { qptiffReader } from './qptiff';
import type { Slide, SlideFormatReader } from './types';

export const FORMATS: readonly SlideFormatReader[] = [cziReader, mrxsReader, qptiffReader];

/** The first format whose `detect` accepts `files`, or undefined. */
export async function detectFormat(files: string[]): Promise<SlideFormatReader | undefined> {
  for (const f of FORMATS) if (await f.detect(files)) return f;
  return undefined;
}

/**
 * Opens a slide upload. `files` is one .czi or .qptiff path, or for MIRAX the .mrxs path together with
 * every file of its data folder (Slidedat.ini, Index.dat, Data*.dat), in any order.
 * Throws SlideError ('unsupported_format' when no reader accepts the files, 'too_large' past
 * `maxPixels` level-0 pixels (slides/limits.ts), else the reader's reason).
 */
export async function openSlide(files: string[], opts: { maxPixels?: number } = {}): Promise<Slide> {
  const format = await detectFormat(files);
  if (!format) throw SlideErrors.unsupportedFormat(basename(files[0] ?? ''));
  const slide = await format.open(files);
  try {
    assertSlideSize(slide, opts.maxPixels ?? DEFAULT_MAX_SLIDE_PIXELS);
  } catch (error) {
    await slide.close();
    throw error;
  }
  return slide;
}

/** Extensions the upload picker accepts, from the registry so that a new format shows up by itself. */
export const SLIDE_EXTENSIONS: readonly string[] = FORMATS.flatMap((f) => f.extensions);
