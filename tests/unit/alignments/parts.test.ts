// The rigid aligner's parts on small arrays: the FFT round trip, two correlations in one transform pair
// finding known shifts, the rotation convention of placed(), and the tissue mask on light and dark glass.
import { describe, expect, it } from 'vitest';
import { correlationPeaks, fft2d, spectrum } from '../../../src/server/alignments/compute/fft';
import {
  placed,
  rotation,
  type GreyImage,
  type RgbImage,
} from '../../../src/server/alignments/compute/image';
import { tissueness, tissueOf } from '../../../src/server/alignments/compute/mask';

const N = 64;

/** A smooth, asymmetric n×n test image. */
function blobs(n: number): Float32Array {
  const out = new Float32Array(n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      out[y * n + x] =
        Math.exp(-((x - 20) ** 2 + (y - 30) ** 2) / 40) +
        0.6 * Math.exp(-((x - 40) ** 2 + (y - 18) ** 2) / 15);
  return out;
}

/** `img` moved by (dx, dy) circularly: content at p goes to p + d. */
function rolled(img: Float32Array, n: number, dx: number, dy: number): Float32Array {
  const out = new Float32Array(n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) out[((y + dy + n) % n) * n + ((x + dx + n) % n)] = img[y * n + x];
  return out;
}

describe('fft', () => {
  it('inverts its own transform', () => {
    const img = blobs(N);
    const re = Float64Array.from(img);
    const im = new Float64Array(N * N);
    fft2d(re, im, N);
    fft2d(re, im, N, true);
    for (let i = 0; i < img.length; i++) {
      expect(re[i]).toBeCloseTo(img[i], 9);
      expect(im[i]).toBeCloseTo(0, 9);
    }
  });

  it('finds two shifts with one pair of transforms', () => {
    const base = blobs(N);
    // a = b moved by d, so b's content at p sits at p + d in a.
    const a = spectrum(rolled(base, N, 5, -7), N);
    const [p1, p2] = correlationPeaks(a, base, rolled(base, N, 8, -3), N);
    expect([p1.dx, p1.dy].map(Math.round)).toEqual([5, -7]);
    expect([p2.dx, p2.dy].map(Math.round)).toEqual([-3, -4]);
    expect(Math.abs(p1.dx - 5)).toBeLessThan(0.05);
    expect(p1.value).toBeGreaterThan(p2.value * 0.99);
  });
});

describe('placed', () => {
  it('turns clockwise on screen and flips left to right before turning', () => {
    const img: GreyImage = { width: 9, height: 9, data: new Float32Array(81) };
    img.data[4 * 9 + 7] = 1; // centred at (7.5, 4.5): right of (4, 4), a little below
    const peak = (canvas: Float32Array) => {
      let best = 0;
      for (let i = 1; i < canvas.length; i++) if (canvas[i] > canvas[best]) best = i;
      return [(best % 16) + 0.5 - 8, Math.floor(best / 16) + 0.5 - 8];
    };
    // Offset (3.5, 0.5) from the centre. 90° clockwise with y down: right → below.
    expect(peak(placed(img, rotation(0, false), [4, 4], 16))).toEqual([3.5, 0.5]);
    expect(peak(placed(img, rotation(90, false), [4, 4], 16))).toEqual([-0.5, 3.5]);
    // Flipped, right → left; then 90° clockwise: left → above.
    expect(peak(placed(img, rotation(0, true), [4, 4], 16))).toEqual([-3.5, 0.5]);
    expect(peak(placed(img, rotation(90, true), [4, 4], 16))).toEqual([-0.5, -3.5]);
  });
});

describe('tissue mask', () => {
  function disc(glass: number, stain: [number, number, number]): RgbImage {
    const w = 80;
    const h = 60;
    const data = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const inside = (x + 0.5 - 50) ** 2 + (y + 0.5 - 25) ** 2 < 12 ** 2;
        const c = inside ? stain : [glass, glass, glass];
        data.set(c, (y * w + x) * 3);
      }
    return { width: w, height: h, data, channels: 3 };
  }

  for (const [name, glass, stain] of [
    ['stain on white glass', 240, [200, 120, 170]],
    ['light on black (fluorescence)', 0, [20, 180, 60]],
  ] as const)
    it(`finds ${name}: its area and centre`, () => {
      const tissue = tissueOf(tissueness(disc(glass, [...stain])));
      expect(Math.abs(tissue.area - Math.PI * 144) / (Math.PI * 144)).toBeLessThan(0.15);
      expect(tissue.centre[0]).toBeCloseTo(50, 0);
      expect(tissue.centre[1]).toBeCloseTo(25, 0);
      expect(tissue.radius).toBeGreaterThan(9);
      expect(tissue.radius).toBeLessThan(14);
    });

  it('finds none on bare glass', () => {
    expect(tissueOf(tissueness(disc(240, [240, 240, 240]))).distinct).toBe(0);
  });
});
