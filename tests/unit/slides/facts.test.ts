// The facts of ../shared/fixtures/README.md (checked there with OpenSlide and tifffile), asserted per file.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLabel } from '../../../src/server/slides/barcode';
import { openSlide } from '../../../src/server/slides/registry';
import type { Slide } from '../../../src/server/slides/types';
import { FIXTURES, meanPerChannel, stddev, uploadFiles } from './fixtures';

function opened(file: string): () => Slide {
  let slide: Slide | undefined;
  beforeAll(async () => {
    slide = await openSlide(uploadFiles(file));
  });
  afterAll(() => slide?.close());
  return () => slide!;
}

const sizes = (s: Slide) => s.levels.map((l) => [l.width, l.height]);

describe('qptiff/fluor-4ch.qptiff', () => {
  const s = opened('qptiff/fluor-4ch.qptiff');
  it('is 1024×768 with 3 reduced levels, 0.5 µm/px, 16-bit fluorescence', () => {
    expect(sizes(s())).toEqual([
      [1024, 768],
      [512, 384],
      [256, 192],
      [128, 96],
    ]);
    expect(s().kind).toBe('fluorescence');
    expect(s().bitsPerSample).toBe(16);
    expect(s().pixelSizeUm).toEqual({ x: 0.5, y: 0.5 });
  });
  it('has the four channels with their names and colours', () => {
    expect(s().channels).toEqual([
      { name: 'DAPI', color: [0, 0, 255] },
      { name: 'Opal 520', color: [0, 255, 0] },
      { name: 'Opal 570', color: [255, 255, 0] },
      { name: 'Opal 690', color: [255, 0, 0] },
    ]);
  });
  it('has signal in every channel, different per channel', async () => {
    const means = [];
    for (let c = 0; c < 4; c++) {
      const img = await s().readRegion(0, 256, 256, 256, 256, c);
      expect(stddev(img.data)).toBeGreaterThan(10);
      means.push(meanPerChannel(img.data, 1)[0]);
    }
    expect(new Set(means.map((m) => Math.round(m))).size).toBe(4);
  });
  it('level 1 matches level 0 shrunk ×2', async () => {
    const a = meanPerChannel((await s().readRegion(0, 0, 0, 512, 512, 0)).data, 1)[0];
    const b = meanPerChannel((await s().readRegion(1, 0, 0, 256, 256, 0)).data, 1)[0];
    expect(Math.abs(a - b) / a).toBeLessThan(0.05);
  });
  it('has label, macro and thumbnail; the label reads FIXTURE-QP-0001', async () => {
    expect([...s().associatedNames].sort()).toEqual(['label', 'macro', 'thumbnail']);
    const label = (await s().associated('label'))!;
    expect([label.width, label.height]).toEqual([1037, 628]);
    expect(await decodeLabel(label)).toBe('FIXTURE-QP-0001');
  });
});

describe('qptiff/brightfield.qptiff', () => {
  const s = opened('qptiff/brightfield.qptiff');
  it('is 2048×1536 RGB with 3 reduced levels, 0.5 µm/px, one Brightfield channel', () => {
    expect(sizes(s())).toEqual([
      [2048, 1536],
      [1024, 768],
      [512, 384],
      [256, 192],
    ]);
    expect(s().kind).toBe('brightfield');
    expect(s().channels).toEqual([{ name: 'Brightfield', color: [255, 255, 255] }]);
    expect(s().pixelSizeUm).toEqual({ x: 0.5, y: 0.5 });
  });
  it('shows tissue: the middle is neither white nor black nor flat', async () => {
    const img = await s().readRegion(0, 768, 512, 512, 512);
    const [r, g, b] = meanPerChannel(img.data, 3);
    expect(Math.min(r, g, b)).toBeGreaterThan(20);
    expect(Math.max(r, g, b)).toBeLessThan(250);
    expect(stddev(img.data)).toBeGreaterThan(5);
  });
  it('the label reads FIXTURE-QP-0002', async () => {
    expect(await decodeLabel((await s().associated('label'))!)).toBe('FIXTURE-QP-0002');
  });
});

describe('mrxs/slide.mrxs', () => {
  const s = opened('mrxs/slide.mrxs');
  it('is 1024² with levels 1024, 512, 256 at 0.25 µm/px', () => {
    expect(sizes(s())).toEqual([
      [1024, 1024],
      [512, 512],
      [256, 256],
    ]);
    expect(s().levels.map((l) => l.downsample)).toEqual([1, 2, 4]);
    expect(s().pixelSizeUm).toEqual({ x: 0.25, y: 0.25 });
    expect(s().kind).toBe('brightfield');
  });
  it('has label 1037×628 reading FIXTURE-MX-0001 and macro 256×256', async () => {
    expect([...s().associatedNames].sort()).toEqual(['label', 'macro']);
    const label = (await s().associated('label'))!;
    expect([label.width, label.height]).toEqual([1037, 628]);
    expect(await decodeLabel(label)).toBe('FIXTURE-MX-0001');
    const macro = (await s().associated('macro'))!;
    expect([macro.width, macro.height]).toEqual([256, 256]);
  });
  it('places the 4×4 camera images seamlessly: neighbours across a 256 seam agree', async () => {
    const img = await s().readRegion(0, 250, 250, 12, 12);
    const px = (x: number, y: number) => [...img.data.subarray((y * 12 + x) * 3, (y * 12 + x) * 3 + 3)];
    for (const [a, b] of [
      [px(5, 2), px(6, 2)],
      [px(2, 5), px(2, 6)],
    ])
      for (let k = 0; k < 3; k++) expect(Math.abs(a[k] - b[k])).toBeLessThan(16);
  });
  it('every level shows the same picture (mean colours agree)', async () => {
    const means = [];
    for (let l = 0; l < 3; l++) {
      const { width, height } = s().levels[l];
      means.push(meanPerChannel((await s().readRegion(l, 0, 0, width, height)).data, 3));
    }
    for (const m of means.slice(1))
      for (let k = 0; k < 3; k++) expect(Math.abs(m[k] - means[0][k])).toBeLessThan(3);
  });
});

describe('czi fixtures', () => {
  it('RGB-8bit.czi: Bgr24 brightfield 924×624, green tissue (blue-first order undone)', async () => {
    const s = await openSlide(uploadFiles('czi/RGB-8bit.czi'));
    expect([s.levels[0].width, s.levels[0].height]).toEqual([924, 624]);
    expect(s.kind).toBe('brightfield');
    const [r, g, b] = meanPerChannel((await s.readRegion(0, 0, 0, 924, 624)).data, 3);
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
    expect(s.associatedNames).toEqual(['thumbnail']);
    await s.close();
  });
  it('DAPI_GFP.czi: two 8-bit channels named DAPI (blue) and GFP (green)', async () => {
    const s = await openSlide(uploadFiles('czi/DAPI_GFP.czi'));
    expect(s.channels).toEqual([
      { name: 'DAPI', color: [0, 0, 255] },
      { name: 'GFP', color: [0, 255, 0] },
    ]);
    expect(s.bitsPerSample).toBe(8);
    await s.close();
  });
  it('newCZI_compressed.czi: zstd0 Gray16 512×512 decodes to a non-flat image', async () => {
    const s = await openSlide(uploadFiles('czi/newCZI_compressed.czi'));
    expect([s.levels[0].width, s.levels[0].height, s.bitsPerSample]).toEqual([512, 512, 16]);
    expect(stddev((await s.readRegion(0, 0, 0, 512, 512)).data)).toBeGreaterThan(10);
    await s.close();
  });
  it('CellDivision (zstd1, hi/lo packed): 240×170, 2 channels, smooth (unpacking right)', async () => {
    const s = await openSlide(uploadFiles('czi/CellDivision_T3_Z5_CH2_X240_Y170_comp1.czi'));
    expect([s.levels[0].width, s.levels[0].height, s.channels.length]).toEqual([240, 170, 2]);
    const img = await s.readRegion(0, 0, 0, 240, 170, 1);
    // Wrong byte order makes neighbours jump by whole high bytes: mean neighbour step stays small if right.
    let steps = 0;
    for (let i = 1; i < img.data.length; i++) steps += Math.abs(img.data[i] - img.data[i - 1]);
    expect(steps / img.data.length).toBeLessThan(stddev(img.data));
    await s.close();
  });
  it('1_tileregion.czi: 7 mosaic tiles make 1480×570; level 1 comes from the pyramid subblock', async () => {
    const s = await openSlide(uploadFiles('czi/1_tileregion.czi'));
    expect(sizes(s)).toEqual([
      [1480, 570],
      [740, 285],
      [370, 143],
    ]);
    expect(s.channels).toEqual([{ name: 'EGFP', color: [0, 255, 91] }]);
    expect(s.pixelSizeUm?.x).toBeCloseTo(0.4, 6);
    const a = meanPerChannel((await s.readRegion(0, 0, 0, 1480, 570)).data, 1)[0];
    const b = meanPerChannel((await s.readRegion(1, 0, 0, 740, 285)).data, 1)[0];
    expect(Math.abs(a - b) / a).toBeLessThan(0.02);
    await s.close();
  });
});

describe('labels/FIXTURE-QP-0001.png', () => {
  it('decodes (QR, DataMatrix and Code128 agree) from the PNG bytes', async () => {
    expect(await decodeLabel(readFileSync(join(FIXTURES, 'labels/FIXTURE-QP-0001.png')))).toBe(
      'FIXTURE-QP-0001',
    );
  });
});
