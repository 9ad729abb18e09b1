// The viewer's pixel math: options and channel windows map values as a pathologist expects.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OPTIONS,
  adjustRgba,
  buildLut,
  colorizeRgba,
  hexToRgb,
  niceLength,
} from '../../../src/app/viewer/adjust';

describe('viewer adjustments', () => {
  it('leaves pixels unchanged with the default options', () => {
    const lut = buildLut(DEFAULT_OPTIONS);
    expect(Array.from(lut.slice(0, 5))).toEqual([0, 1, 2, 3, 4]);
    expect(lut[255]).toBe(255);
  });

  it.each([
    ['exposure +1 doubles', { exposure: 1 }, 64, 128],
    ['brightness +0.5 adds half', { brightness: 0.5 }, 0, 128],
    ['contrast 2 pushes away from the middle', { contrast: 2 }, 192, 255],
    ['gamma 2 lifts mid-tones', { gamma: 2 }, 64, 128],
  ])('%s', (_name, change, input, output) => {
    const lut = buildLut({ ...DEFAULT_OPTIONS, ...change });
    expect(Math.abs(lut[input] - output)).toBeLessThanOrEqual(1);
  });

  it('stretches a channel window to the full range', () => {
    const lut = buildLut(DEFAULT_OPTIONS, { min: 50, max: 150 });
    expect(lut[50]).toBe(0);
    expect(lut[100]).toBe(128);
    expect(lut[150]).toBe(255);
    expect(lut[10]).toBe(0);
  });

  it('desaturates to grey at saturation 0', () => {
    const px = new Uint8ClampedArray([200, 100, 50, 255]);
    adjustRgba(px, buildLut(DEFAULT_OPTIONS), 0);
    expect(px[0]).toBe(px[1]);
    expect(px[1]).toBe(px[2]);
  });

  it('tints a grey tile with its channel colour', () => {
    const px = new Uint8ClampedArray([255, 255, 255, 255, 128, 128, 128, 255]);
    colorizeRgba(px, buildLut(DEFAULT_OPTIONS), hexToRgb('#00ff00'));
    expect(Array.from(px.slice(0, 4))).toEqual([0, 255, 0, 255]);
    expect(px[5]).toBe(128);
  });

  it('picks scale-bar lengths of 1, 2 or 5 × 10ⁿ', () => {
    expect(niceLength(73).um).toBe(50);
    expect(niceLength(230).label).toBe('200 µm');
    expect(niceLength(1500).label).toBe('1 mm');
  });
});
