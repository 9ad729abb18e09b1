// The slide readers by format and the one entry point `openSlide(files)`. Which formats exist, their
// extensions and their detection order are the descriptors of src/api/slide-formats.ts; this file
// maps each descriptor's `format` to its reader, so a descriptor without a reader fails to compile.
// Adding a format: write `<vendor>.ts` exporting a SlideFormatReader, one descriptor line, one line here.

import { basename } from 'node:path';
import { SLIDE_FORMATS, type SlideFormat } from '../../api/slide-formats';
import { checkedSlide } from './checked';
import { cziReader } from './czi';
import { SlideErrors } from './errors';
import { openDiskFile, type OpenFile } from './file';
import { assertSlideSize, DEFAULT_MAX_SLIDE_PIXELS } from './limits';
import { mrxsReader } from './mrxs';
import { qptiffReader } from './qptiff';
import type { Slide, SlideFormatReader } from './types';

const READERS: Readonly<Record<SlideFormat, SlideFormatReader>> = {
  czi: cziReader,
  mrxs: mrxsReader,
  qptiff: qptiffReader,
};

/** The readers in detection order: specific vendors first, anything TIFF-generic last. */
export const FORMATS: readonly SlideFormatReader[] = SLIDE_FORMATS.map((d) => READERS[d.format]);

/** The first format whose `detect` accepts `files`, or undefined. */
export async function detectFormat(
  files: string[],
  openFile: OpenFile = openDiskFile,
): Promise<SlideFormatReader | undefined> {
  for (const f of FORMATS) if (await f.detect(files, openFile)) return f;
  return undefined;
}

/**
 * Opens a slide upload. `files` is one .czi or .qptiff path, or for MIRAX the .mrxs path together with
 * every file of its data folder (Slidedat.ini, Index.dat, Data*.dat), in any order. The names are paths
 * on the disk, or any names `opts.openFile` opens (the file storage's keys in the processing job).
 * `scene` (default 0) picks one of the file's `scenes`.
 * Throws SlideError ('unsupported_format' when no reader accepts the files, 'too_large' past
 * `maxPixels` level-0 pixels of the scene (slides/limits.ts), 'bad_request' for a scene the file does
 * not have, else the reader's reason).
 */
export async function openSlide(
  files: string[],
  opts: { maxPixels?: number; scene?: number; openFile?: OpenFile } = {},
): Promise<Slide> {
  const scene = opts.scene ?? 0;
  const openFile = opts.openFile ?? openDiskFile;
  const format = await detectFormat(files, openFile);
  if (!format) throw SlideErrors.unsupportedFormat(basename(files[0] ?? ''));
  const slide = await format.open(files, openFile, scene);
  try {
    if (slide.scene !== scene) throw SlideErrors.noScene(scene, slide.scenes);
    assertSlideSize(slide, opts.maxPixels ?? DEFAULT_MAX_SLIDE_PIXELS);
  } catch (error) {
    await slide.close();
    throw error;
  }
  return checkedSlide(slide);
}
