// The shared slide fixtures (../shared/fixtures, checked with OpenSlide and tifffile), pinned by SHA-256,
// with the reader that must open each: the one table the reader tests iterate over (STYLE §5).

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SlideFormat } from '../../../src/api/slide-formats';

/** /work/shared/fixtures, found from the repository root (the tests' working directory). */
export const FIXTURES = resolve(process.cwd(), '../shared/fixtures');

export interface Fixture {
  /** Path relative to FIXTURES of the file a user picks (the .mrxs for MIRAX). */
  file: string;
  /** The reader that must open it; undefined = no reader may. */
  format: SlideFormat | undefined;
  sha256: Record<string, string>;
}

export const FIXTURE_TABLE: Fixture[] = [
  {
    file: 'czi/RGB-8bit.czi',
    format: 'czi',
    sha256: { 'czi/RGB-8bit.czi': '44593e6210f2f9066f8608c53c31806f4d173d1d26bb3bb5c32b182fb0c0a43e' },
  },
  {
    file: 'czi/DAPI_GFP.czi',
    format: 'czi',
    sha256: { 'czi/DAPI_GFP.czi': '2eaae3134e74f0d474001abc10e30d2eec7d0a299e75a9b8f756eee129114e35' },
  },
  {
    file: 'czi/newCZI_compressed.czi',
    format: 'czi',
    sha256: {
      'czi/newCZI_compressed.czi': 'f9c1ae9995679a96f9b5547362f20d929fd4f8ca0dcc60604e96f6c885ad6e82',
    },
  },
  {
    file: 'czi/CellDivision_T3_Z5_CH2_X240_Y170_comp1.czi',
    format: 'czi',
    sha256: {
      'czi/CellDivision_T3_Z5_CH2_X240_Y170_comp1.czi':
        '8e8d29a67a8c36776e4be3c7403b81e81259438a8d116223e71fd83899ce9c2b',
    },
  },
  {
    file: 'czi/1_tileregion.czi',
    format: 'czi',
    sha256: { 'czi/1_tileregion.czi': '0a6b6fe809daee787d0eb1df4036e76e62236ac00017bbbd96fd3c3339958d0e' },
  },
  {
    file: 'qptiff/fluor-4ch.qptiff',
    format: 'qptiff',
    sha256: { 'qptiff/fluor-4ch.qptiff': 'da5e23b3a7adb4680abed9eb0b28a7a707ff4ae8f64c56253826d442b7743749' },
  },
  {
    file: 'qptiff/brightfield.qptiff',
    format: 'qptiff',
    sha256: {
      'qptiff/brightfield.qptiff': 'c4496834e99e515c2a9a2d92a3ccccd9e4c89e6426c361e038d844b638300676',
    },
  },
  {
    file: 'mrxs/slide.mrxs',
    format: 'mrxs',
    sha256: {
      'mrxs/slide.mrxs': '063c8f91e7eec33f3ee195e75896fb31daae226c0e997037399e6d38fcd57058',
      'mrxs/slide/Data0000.dat': 'd425becae1e51fe8b13774e78fd365df99ba5a79fd550044a694de166d70c803',
      'mrxs/slide/Index.dat': 'd48a744dc07bb83bb5387da501a7af809d50d43562a7de59f54b538d1ef736da',
      'mrxs/slide/Slidedat.ini': '77c1e438b1b06e4bc3fdb6fd9d9916e4e6e5a50d949a69a9c8e5b116045340a3',
    },
  },
  {
    file: 'labels/FIXTURE-QP-0001.png',
    format: undefined,
    sha256: {
      'labels/FIXTURE-QP-0001.png': '9c2f54e8a34cfbbfdd6a6d70f4a6b138443f0b7d1912ceb3ddbfa1b795de407f',
    },
  },
];

/** The upload's file list: the file itself, plus the data folder's files for MIRAX. */
export function uploadFiles(file: string): string[] {
  const main = join(FIXTURES, file);
  if (!file.endsWith('.mrxs')) return [main];
  const folder = main.replace(/\.mrxs$/, '');
  return [main, ...readdirSync(folder).map((n) => join(folder, n))];
}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Mean of each sample over an image (interleaved channels). */
export function meanPerChannel(data: ArrayLike<number>, channels: number): number[] {
  const sums = new Array<number>(channels).fill(0);
  for (let i = 0; i < data.length; i++) sums[i % channels] += data[i];
  return sums.map((s) => s / (data.length / channels));
}

/** Standard deviation of all samples: 0 for a uniform image. */
export function stddev(data: ArrayLike<number>): number {
  let s = 0;
  let s2 = 0;
  for (let i = 0; i < data.length; i++) {
    s += data[i];
    s2 += data[i] * data[i];
  }
  const m = s / data.length;
  return Math.sqrt(Math.max(0, s2 / data.length - m * m));
}
