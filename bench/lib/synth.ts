// Synthetic H&E-like slide pixels, computed tile by tile from (x, y) alone, so any tile of a 40,000 ×
// 30,000 slide can be made without the rest in memory: smooth tissue islands (value noise, three
// octaves) on a near-white glass background, pink stroma with a fine texture, purple nuclei on a
// jittered grid, and a little per-pixel noise so JPEG has real work to do.

const BG: [number, number, number] = [243, 242, 240];
const STROMA: [number, number, number] = [226, 150, 186];
const NUCLEUS: [number, number, number] = [84, 52, 132];
const CELL = 20; // nucleus grid pitch in pixels
const COARSE = 8; // the tissue field is evaluated every COARSE pixels and interpolated

/** A deterministic hash of two integers (and a seed) to [0, 1). */
function hash(x: number, y: number, seed: number): number {
  let h = Math.imul(x, 374761393) ^ Math.imul(y, 668265263) ^ Math.imul(seed, 2147483647);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

const smooth = (t: number) => t * t * (3 - 2 * t);

/** Value noise with lattice pitch `cell`, in [0, 1). */
function valueNoise(x: number, y: number, cell: number, seed: number): number {
  const gx = x / cell;
  const gy = y / cell;
  const ix = Math.floor(gx);
  const iy = Math.floor(gy);
  const fx = smooth(gx - ix);
  const fy = smooth(gy - iy);
  const a = hash(ix, iy, seed);
  const b = hash(ix + 1, iy, seed);
  const c = hash(ix, iy + 1, seed);
  const d = hash(ix + 1, iy + 1, seed);
  return a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
}

/** Tissue density in [0, 1]: 0 is glass, 1 dense tissue; `scale` shrinks features for small slides. */
function tissue(x: number, y: number, scale: number): number {
  const n =
    0.55 * valueNoise(x, y, 6000 * scale, 1) +
    0.3 * valueNoise(x, y, 1500 * scale, 2) +
    0.15 * valueNoise(x, y, 300 * scale, 3);
  const t = (n - 0.42) * 6; // islands: about half of the slide is tissue
  return t <= 0 ? 0 : t >= 1 ? 1 : t;
}

/**
 * RGB pixels (row-major, 3 bytes each) of the w×h rectangle at (x0, y0) of a slide whose longer side
 * is `slideSize` pixels (features scale with it, so a small slide still looks like a slide). With
 * `step` > 1 the pixels sample every step-th full-resolution pixel (a reduced level), x0/y0 staying
 * full-resolution coordinates.
 */
export function tissueTile(
  x0: number,
  y0: number,
  w: number,
  h: number,
  slideSize = 40_000,
  step = 1,
): Buffer {
  const scale = Math.max(0.05, slideSize / 40_000);
  const out = Buffer.allocUnsafe(w * h * 3);
  // The tissue field on a coarse grid (one extra sample each way), interpolated per pixel.
  const cw = Math.floor(w / COARSE) + 2;
  const chh = Math.floor(h / COARSE) + 2;
  const field = new Float32Array(cw * chh);
  for (let j = 0; j < chh; j++)
    for (let i = 0; i < cw; i++)
      field[j * cw + i] = tissue(x0 + i * COARSE * step, y0 + j * COARSE * step, scale);
  const texture = new Float32Array(cw * chh);
  for (let j = 0; j < chh; j++)
    for (let i = 0; i < cw; i++)
      texture[j * cw + i] = valueNoise(x0 + i * COARSE * step, y0 + j * COARSE * step, 24, 4);

  let noise = (x0 * 31 + y0 * 17) >>> 0;
  for (let y = 0; y < h; y++) {
    const gy = y / COARSE;
    const j = Math.floor(gy);
    const fy = gy - j;
    const Y = y0 + y * step;
    const cy = Math.floor(Y / CELL);
    for (let x = 0; x < w; x++) {
      const gx = x / COARSE;
      const i = Math.floor(gx);
      const fx = gx - i;
      const k = j * cw + i;
      const t =
        (field[k] * (1 - fx) + field[k + 1] * fx) * (1 - fy) +
        (field[k + cw] * (1 - fx) + field[k + cw + 1] * fx) * fy;
      const tex =
        (texture[k] * (1 - fx) + texture[k + 1] * fx) * (1 - fy) +
        (texture[k + cw] * (1 - fx) + texture[k + cw + 1] * fx) * fy;
      // Stroma: pink, darker where the texture is dense, blended with the glass by tissue density.
      const s = t * (0.75 + 0.5 * tex);
      let r = BG[0] + (STROMA[0] - BG[0]) * s;
      let g = BG[1] + (STROMA[1] - BG[1]) * s;
      let b = BG[2] + (STROMA[2] - BG[2]) * s;
      // Nuclei: one candidate per grid cell, jittered, present where there is tissue.
      const X = x0 + x * step;
      const cx = Math.floor(X / CELL);
      const hv = hash(cx, cy, 5);
      if (t > 0.15 && hv < 0.25 + 0.5 * t) {
        const ncx = cx * CELL + 7 + hash(cx, cy, 6) * 6;
        const ncy = cy * CELL + 7 + hash(cx, cy, 7) * 6;
        const rad = 3.5 + hash(cx, cy, 8) * 2.5;
        const d2 = (X - ncx) * (X - ncx) + (Y - ncy) * (Y - ncy);
        if (d2 < rad * rad) {
          const edge = Math.min(1, (rad * rad - d2) / (2 * rad)); // soft rim
          r += (NUCLEUS[0] - r) * edge;
          g += (NUCLEUS[1] - g) * edge;
          b += (NUCLEUS[2] - b) * edge;
        }
      }
      noise = (Math.imul(noise, 1103515245) + 12345) >>> 0;
      const n = ((noise >>> 16) & 15) - 7.5;
      const o = (y * w + x) * 3;
      out[o] = r + n < 0 ? 0 : r + n > 255 ? 255 : r + n;
      out[o + 1] = g + n < 0 ? 0 : g + n > 255 ? 255 : g + n;
      out[o + 2] = b + n < 0 ? 0 : b + n > 255 ? 255 : b + n;
    }
  }
  return out;
}
