// Fluorescence per scene: a 16-bit, two-channel CZI whose two scenes hold very different intensities
// (a dim section and a bright one) opens as two images, and each channel of each scene is mapped to
// 8 bits through the range of its own data — a bright scene does not wash out a dim one, nor the
// other way round — with the channel names and colours of the file.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { channelRange, to8bit } from '../../../src/server/processing/tiler';
import { openSlide } from '../../../src/server/slides/registry';
import { cziXml, writeCzi, type SubblockSpec } from './gen/czi-writer';
import { COMP, PT, tempDir } from './gen/slides';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const W = 300;
const H = 200;
/** Intensity span [low, high] of each scene's channels: scene 0 dim, scene 1 bright. */
const SPANS = [
  [
    [1_000, 2_000],
    [100, 600],
  ],
  [
    [20_000, 40_000],
    [5_000, 6_000],
  ],
] as const;

/** A horizontal ramp from `low` to `high`, Gray16 little-endian. */
function ramp(low: number, high: number): Uint8Array {
  const bytes = new Uint8Array(W * H * 2);
  const view = new DataView(bytes.buffer);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      view.setUint16((y * W + x) * 2, low + Math.round(((high - low) * x) / (W - 1)), true);
  return bytes;
}

function twoSceneFluorescenceCzi(): string {
  const subblocks: SubblockSpec[] = SPANS.flatMap((channels, s) =>
    channels.map(([low, high], c) => ({
      x: s * 10_000,
      y: 0,
      w: W,
      h: H,
      s,
      c,
      pixelType: PT.Gray16,
      compression: COMP.None,
      data: ramp(low, high),
    })),
  );
  const xml = cziXml({
    pixelUm: 0.325,
    channels: [
      { name: 'DAPI', color: '#FF0000FF' },
      { name: 'FITC', color: '#FF00FF00' },
    ],
  });
  const path = join(dir, 'two-scenes-16bit.czi');
  writeFileSync(path, writeCzi(subblocks, xml));
  return path;
}

describe('a 16-bit fluorescence CZI with a dim and a bright scene', () => {
  it('maps each channel of each scene through the range of its own data', async () => {
    const path = twoSceneFluorescenceCzi();
    for (const [scene, channels] of SPANS.entries()) {
      const slide = await openSlide([path], { scene });
      expect([slide.kind, slide.scenes, slide.levels[0].width, slide.levels[0].height]).toEqual([
        'fluorescence',
        2,
        W,
        H,
      ]);
      expect(slide.channels).toEqual([
        { name: 'DAPI', color: [0, 0, 255] },
        { name: 'FITC', color: [0, 255, 0] },
      ]);
      for (const [channel, [low, high]] of channels.entries()) {
        const range = await channelRange(slide, channel);
        // The 0.5th–99.5th percentile of a ramp over [low, high]: inside it, within 1 % of its ends.
        const slack = (high - low) * 0.01 + 1;
        expect(range.min).toBeGreaterThanOrEqual(low);
        expect(range.min).toBeLessThanOrEqual(low + slack);
        expect(range.max).toBeLessThanOrEqual(high);
        expect(range.max).toBeGreaterThanOrEqual(high - slack);
        // The scene's own darkest, middle and brightest columns span the 8-bit display.
        const row = await slide.readRegion(0, 0, 0, W, 1, channel);
        expect(row.bits).toBe(16);
        const shown = to8bit(row, range);
        expect(shown[0]).toBe(0);
        expect(Math.abs(shown[W >> 1] - 128)).toBeLessThanOrEqual(3);
        expect(shown[W - 1]).toBe(255);
      }
      await slide.close();
    }
  });
});
