// Tissue mask and the signal the rigid aligner correlates. A pixel's "tissue-ness" depends on its colour
// alone, so two scans give the same values whatever else lies on their glass: on brightfield (stain on
// light glass) how dark its darkest channel is, on fluorescence (light on black) how bright its brightest
// is. Smoothed, it is tissue above Otsu's threshold. The signal is the tissue-ness inside the mask and 0
// outside, so glass, background and the image's edges weigh nothing and the outline and inner texture
// of the tissue drive the match. An image whose kind is not known is judged by its border's colour.
import { grey, type GreyImage, type RgbImage } from './image';

export interface Tissue {
  /** Tissue-ness inside the mask, 0 outside. */
  signal: GreyImage;
  /** Pixels in the mask. */
  area: number;
  /**
   * Pixels of the mask standing out from the border's median by MIN_CONTRAST: bare glass a little
   * darker than white passes a low threshold everywhere, yet has none.
   */
  distinct: number;
  /** Signal-weighted centre (continuous coordinates). */
  centre: [number, number];
  /** Distance from the centre within which nearly all the signal lies (its 99.5th percentile). */
  radius: number;
}

export type SlideKind = 'brightfield' | 'fluorescence';

/** Share of the image's border, on each side, sampled for the background colour. */
const BORDER = 0.04;
/** Tissue-ness below this is background even when Otsu's threshold is lower (flat images). */
const MIN_THRESHOLD = 12;
/** Tissue stands out by at least this much from the image's border (its glass, mostly). */
const MIN_CONTRAST = 12;

function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median colour of the border ring. */
export function backgroundColour(img: RgbImage): [number, number, number] {
  const { width: w, height: h, data, channels } = img;
  const bx = Math.max(1, Math.round(w * BORDER));
  const by = Math.max(1, Math.round(h * BORDER));
  const samples: [number[], number[], number[]] = [[], [], []];
  // Every few pixels is enough for a median and keeps this cheap on any size.
  const step = Math.max(1, Math.floor((w + h) / 400));
  for (let y = 0; y < h; y += step)
    for (let x = 0; x < w; x += step) {
      if (x >= bx && x < w - bx && y >= by && y < h - by) continue;
      const i = (y * w + x) * channels;
      for (let c = 0; c < 3; c++) samples[c].push(data[i + c]);
    }
  return [median(samples[0]), median(samples[1]), median(samples[2])];
}

/** Mean over a (2r+1)² box, edges clamped; separable. */
export function boxBlur(img: GreyImage, r: number): GreyImage {
  const { width: w, height: h } = img;
  const tmp = grey(w, h);
  const out = grey(w, h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let k = -r; k <= r; k++) s += img.data[y * w + Math.min(w - 1, Math.max(0, x + k))];
      tmp.data[y * w + x] = s / (2 * r + 1);
    }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let k = -r; k <= r; k++) s += tmp.data[Math.min(h - 1, Math.max(0, y + k)) * w + x];
      out.data[y * w + x] = s / (2 * r + 1);
    }
  return out;
}

/** Otsu's threshold of values in [0, max), on 256 bins. */
export function otsu(values: Float32Array, max: number): number {
  const bins = new Float64Array(256);
  for (const v of values) bins[Math.min(255, Math.max(0, Math.floor((v / max) * 256)))]++;
  const total = values.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * bins[i];
  let wB = 0;
  let sumB = 0;
  let best = 0;
  let bestEnd = 0;
  let bestVar = -1;
  for (let t = 0; t < 256; t++) {
    wB += bins[t];
    if (!wB) continue;
    const wF = total - wB;
    if (!wF) break;
    sumB += t * bins[t];
    const mB = sumB / wB;
    const mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > bestVar * (1 + 1e-9)) {
      bestVar = between;
      best = t;
      bestEnd = t;
    } else if (between >= bestVar * (1 - 1e-9)) bestEnd = t;
  }
  // Two clean levels leave every bin between them equally good: split in the middle of that gap.
  return (((best + bestEnd) / 2 + 1) / 256) * max;
}

/** Median of a grey image's border ring. */
function borderLevel(img: GreyImage): number {
  const { width: w, height: h, data } = img;
  const bx = Math.max(1, Math.round(w * BORDER));
  const by = Math.max(1, Math.round(h * BORDER));
  const values: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (x < bx || x >= w - bx || y < by || y >= h - by) values.push(data[y * w + x]);
  return median(values);
}

/** Brightfield when the border is light (glass), fluorescence when dark. */
export function guessKind(img: RgbImage): SlideKind {
  const [r, g, b] = backgroundColour(img);
  return 0.299 * r + 0.587 * g + 0.114 * b >= 128 ? 'brightfield' : 'fluorescence';
}

/** Tissue-ness per pixel, 0..255: darkness of the darkest channel, or brightness of the brightest. */
export function tissueness(img: RgbImage, kind: SlideKind = guessKind(img)): GreyImage {
  const out = grey(img.width, img.height);
  const { data, channels } = img;
  for (let p = 0, i = 0; p < out.data.length; p++, i += channels)
    out.data[p] =
      kind === 'brightfield'
        ? 255 - Math.min(data[i], data[i + 1], data[i + 2])
        : Math.max(data[i], data[i + 1], data[i + 2]);
  return out;
}

/**
 * Otsu's threshold over the tissue-ness of all `images` together: two scans of one kind get one
 * threshold, so the same tissue is masked alike even where one image has more glass or a filled edge.
 */
export function tissueThreshold(...images: GreyImage[]): number {
  const all = new Float32Array(images.reduce((n, img) => n + img.data.length, 0));
  let at = 0;
  for (const img of images) {
    all.set(img.data, at);
    at += img.data.length;
  }
  return Math.max(MIN_THRESHOLD, otsu(all, 256));
}

/** The tissue of a tissue-ness image (tissueness(), possibly shrunk since). */
export function tissueOf(ness: GreyImage, threshold = tissueThreshold(ness)): Tissue {
  const smooth = boxBlur(ness, 1);
  const signal = grey(ness.width, ness.height);
  const floor = borderLevel(smooth) + MIN_CONTRAST;
  let distinct = 0;
  let area = 0;
  let sum = 0;
  let cx = 0;
  let cy = 0;
  const { width: w } = ness;
  for (let p = 0; p < smooth.data.length; p++) {
    if (smooth.data[p] <= threshold) continue;
    const v = smooth.data[p];
    signal.data[p] = v;
    area++;
    if (v > floor) distinct++;
    sum += v;
    cx += v * ((p % w) + 0.5);
    cy += v * (Math.floor(p / w) + 0.5);
  }
  const centre: [number, number] = sum ? [cx / sum, cy / sum] : [0, 0];
  const distances: number[] = [];
  for (let p = 0; p < signal.data.length; p++)
    if (signal.data[p])
      distances.push(Math.hypot((p % w) + 0.5 - centre[0], Math.floor(p / w) + 0.5 - centre[1]));
  distances.sort((a, b) => a - b);
  const radius = distances.length ? distances[Math.floor((distances.length - 1) * 0.995)] : 0;
  return { signal, area, distinct, centre, radius };
}
