// Pixel-buffer helpers shared by the readers: allocate, copy a rectangle with clipping, shrink by a box filter.
// Quirk: everything is interleaved and tightly packed (RawImage); 16-bit data stays in native byte order.

import type { RawImage, Slide } from './types';

/** The background of a slide's regions (readRegion in types.ts): white for brightfield, dark for fluorescence. */
export const backgroundOf = (kind: Slide['kind']): number => (kind === 'brightfield' ? 255 : 0);

/** A new region of a slide of `kind`, shaped as its readRegion returns one and filled with its background. */
export function allocRegion(kind: Slide['kind'], bits: 8 | 16, width: number, height: number): RawImage {
  return allocRaw(width, height, kind === 'brightfield' ? 3 : 1, bits, backgroundOf(kind));
}

/** The bytes of `img`'s samples as a Buffer over the same memory (no copy; 16-bit samples stay two bytes). */
export const bytesOf = (img: RawImage): Buffer =>
  Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);

/** A new image filled with `fill` in every sample (255 = white brightfield background, 0 = dark). */
export function allocRaw(
  width: number,
  height: number,
  channels: 1 | 3 | 4,
  bits: 8 | 16,
  fill = 0,
): RawImage {
  const n = width * height * channels;
  const data = bits === 16 ? new Uint16Array(n) : new Uint8Array(n);
  if (fill !== 0) data.fill(fill);
  return { width, height, channels, bits, data };
}

/**
 * Copies `src` into `dst` with its top-left corner at (dx, dy) in dst pixels, clipping at dst's edges.
 * NOTE mutates dst. Both must have the same channels and bits.
 */
export function blit(dst: RawImage, src: RawImage, dx: number, dy: number): void {
  if (src.channels !== dst.channels || src.bits !== dst.bits) {
    throw new Error(`blit: ${src.channels}x${src.bits} into ${dst.channels}x${dst.bits}`);
  }
  const c = dst.channels;
  const x0 = Math.max(0, dx);
  const y0 = Math.max(0, dy);
  const x1 = Math.min(dst.width, dx + src.width);
  const y1 = Math.min(dst.height, dy + src.height);
  if (x1 <= x0 || y1 <= y0) return;
  const rowLen = (x1 - x0) * c;
  for (let y = y0; y < y1; y++) {
    const s = ((y - dy) * src.width + (x0 - dx)) * c;
    const d = (y * dst.width + x0) * c;
    // subarray+set is a memcpy; the typed arrays are the same kind (checked above).
    (dst.data as Uint8Array).set((src.data as Uint8Array).subarray(s, s + rowLen), d);
  }
}

/**
 * Hands each decode's image to `place` in the list's order (later images are drawn over earlier ones
 * where they overlap) as soon as it and every earlier one are done, and lets go of it then: all decodes
 * run at once, but a region as wide as a slide never holds all of its decoded tiles at the same time.
 */
export async function placeInOrder(
  decodes: Array<Promise<RawImage>>,
  place: (img: RawImage, index: number) => void,
): Promise<void> {
  // A failure is awaited in turn; the later decodes' failures are not unhandled meanwhile.
  for (const d of decodes) d.catch(() => {});
  for (let i = 0; i < decodes.length; i++) {
    place(await decodes[i], i);
    decodes[i] = DONE;
  }
}

const DONE: Promise<RawImage> = Promise.resolve({
  width: 0,
  height: 0,
  channels: 3,
  bits: 8,
  data: new Uint8Array(0),
});

/**
 * Shrinks `src` to width×height by averaging the source box that maps onto each output pixel.
 * Used where a file has no stored level; the result is what a pyramid level would hold.
 */
export function shrink(src: RawImage, width: number, height: number): RawImage {
  if (src.width === width && src.height === height) return src;
  const out = allocRaw(width, height, src.channels, src.bits);
  const c = src.channels;
  const fx = src.width / width;
  const fy = src.height / height;
  const sd = src.data;
  const od = out.data;
  const acc = new Float64Array(c);
  for (let y = 0; y < height; y++) {
    const sy0 = Math.floor(y * fy);
    const sy1 = Math.max(sy0 + 1, Math.min(src.height, Math.floor((y + 1) * fy)));
    for (let x = 0; x < width; x++) {
      const sx0 = Math.floor(x * fx);
      const sx1 = Math.max(sx0 + 1, Math.min(src.width, Math.floor((x + 1) * fx)));
      acc.fill(0);
      for (let sy = sy0; sy < sy1; sy++) {
        let i = (sy * src.width + sx0) * c;
        for (let sx = sx0; sx < sx1; sx++) for (let k = 0; k < c; k++) acc[k] += sd[i++];
      }
      const n = (sy1 - sy0) * (sx1 - sx0);
      const o = (y * width + x) * c;
      for (let k = 0; k < c; k++) od[o + k] = Math.round(acc[k] / n);
    }
  }
  return out;
}

/** Nearest-neighbour scaling to an exact size; for placing a stored tile whose size is off by a pixel. */
export function resizeNearest(src: RawImage, width: number, height: number): RawImage {
  if (src.width === width && src.height === height) return src;
  if (width <= src.width && height <= src.height) return shrink(src, width, height);
  const out = allocRaw(width, height, src.channels, src.bits);
  const c = src.channels;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(src.height - 1, Math.floor((y * src.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(src.width - 1, Math.floor((x * src.width) / width));
      const s = (sy * src.width + sx) * c;
      const o = (y * width + x) * c;
      for (let k = 0; k < c; k++) out.data[o + k] = src.data[s + k];
    }
  }
  return out;
}

/** Swaps samples 0 and 2 of every pixel in place (BGR ↔ RGB). NOTE mutates img. */
export function swapRedBlue(img: RawImage): RawImage {
  const d = img.data;
  const c = img.channels;
  for (let i = 0; i + 2 < d.length; i += c) {
    const t = d[i];
    d[i] = d[i + 2];
    d[i + 2] = t;
  }
  return img;
}

/** Drops alpha / converts grey to RGB so that associated images are always RGB 8-bit. */
export function toRgb8(img: RawImage): RawImage {
  if (img.channels === 3 && img.bits === 8) return img;
  const out = allocRaw(img.width, img.height, 3, 8);
  const n = img.width * img.height;
  const shift = img.bits === 16 ? 8 : 0;
  for (let p = 0; p < n; p++) {
    for (let k = 0; k < 3; k++) {
      const v = img.channels === 1 ? img.data[p] : img.data[p * img.channels + k];
      out.data[p * 3 + k] = v >> shift;
    }
  }
  return out;
}

/** Checks a readRegion request's size; readers call it first. */
export function assertRect(w: number, h: number): void {
  if (!Number.isInteger(w) || !Number.isInteger(h) || w < 1 || h < 1) {
    throw new RangeError(`Region size must be positive integers, got ${w}x${h}`);
  }
}
