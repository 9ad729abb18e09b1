// Grey images as plain arrays, and the resampling the rigid aligner needs: shrinking to a working
// grid, halving for the coarse levels, and drawing an image rotated (and mirrored) into a square canvas.
// Coordinates are continuous with pixel (i, j) covering [i, i+1) × [j, j+1): its centre is (i+½, j+½).

export interface GreyImage {
  width: number;
  height: number;
  /** Row-major, one value per pixel. */
  data: Float32Array;
}

export interface RgbImage {
  width: number;
  height: number;
  /** Row-major, 3 or 4 samples per pixel (the 4th is ignored). */
  data: Uint8Array;
  channels: 3 | 4;
}

export const grey = (width: number, height: number): GreyImage => ({
  width,
  height,
  data: new Float32Array(width * height),
});

/**
 * Bilinear sample at continuous (x, y); 0 outside the image. No closures inside: this runs for every
 * canvas pixel of every trial, and a loader that keeps function names (tsx) wraps each closure made.
 */
export function sample(img: GreyImage, x: number, y: number): number {
  const fx = x - 0.5;
  const fy = y - 0.5;
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const { width: w, height: h, data } = img;
  if (x0 < -1 || y0 < -1 || x0 >= w || y0 >= h) return 0;
  const tx = fx - x0;
  const ty = fy - y0;
  const inX0 = x0 >= 0;
  const inX1 = x0 + 1 < w;
  const row0 = y0 >= 0 ? y0 * w : -1;
  const row1 = y0 + 1 < h ? (y0 + 1) * w : -1;
  const v00 = row0 >= 0 && inX0 ? data[row0 + x0] : 0;
  const v10 = row0 >= 0 && inX1 ? data[row0 + x0 + 1] : 0;
  const v01 = row1 >= 0 && inX0 ? data[row1 + x0] : 0;
  const v11 = row1 >= 0 && inX1 ? data[row1 + x0 + 1] : 0;
  return (v00 * (1 - tx) + v10 * tx) * (1 - ty) + (v01 * (1 - tx) + v11 * tx) * ty;
}

/** Each output pixel is the mean of the 2×2 pixels under it (the last odd row or column alone). */
export function halve(img: GreyImage): GreyImage {
  const w = Math.max(1, Math.ceil(img.width / 2));
  const h = Math.max(1, Math.ceil(img.height / 2));
  const out = grey(w, h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let sum = 0;
      let n = 0;
      for (let j = 2 * y; j < Math.min(2 * y + 2, img.height); j++)
        for (let i = 2 * x; i < Math.min(2 * x + 2, img.width); i++) {
          sum += img.data[j * img.width + i];
          n++;
        }
      out.data[y * w + x] = sum / n;
    }
  return out;
}

/**
 * The image on a grid `sx` × `sy` times coarser (≥ 1 each): each output pixel is the mean of the input
 * area it covers, so texture finer than the grid averages out rather than aliasing.
 */
export function shrink(img: GreyImage, sx: number, sy: number, width: number, height: number): GreyImage {
  const out = grey(width, height);
  for (let y = 0; y < height; y++) {
    const y0 = y * sy;
    const y1 = Math.min(img.height, (y + 1) * sy);
    for (let x = 0; x < width; x++) {
      const x0 = x * sx;
      const x1 = Math.min(img.width, (x + 1) * sx);
      let sum = 0;
      let area = 0;
      for (let j = Math.floor(y0); j < Math.ceil(y1); j++) {
        const wy = Math.min(j + 1, y1) - Math.max(j, y0);
        if (wy <= 0) continue;
        for (let i = Math.floor(x0); i < Math.ceil(x1); i++) {
          const wx = Math.min(i + 1, x1) - Math.max(i, x0);
          if (wx <= 0) continue;
          sum += img.data[j * img.width + i] * wx * wy;
          area += wx * wy;
        }
      }
      out.data[y * width + x] = area ? sum / area : 0;
    }
  }
  return out;
}

/** A 2×2 linear map [[a, b], [c, d]]. */
export type Linear = [number, number, number, number];

/** Rotation by `degrees` (clockwise on screen, y pointing down), after a left–right flip if `mirrored`. */
export function rotation(degrees: number, mirrored: boolean): Linear {
  const r = (degrees * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  return mirrored ? [-c, -s, -s, c] : [c, -s, s, c];
}

/**
 * An n×n canvas holding `img` moved by the linear map `m` about `centre` (in img's coordinates),
 * which lands on the canvas's middle: canvas point q shows img at m⁻¹(q − n/2) + centre.
 */
export function placed(img: GreyImage, m: Linear, centre: [number, number], n: number): Float32Array {
  const [a, b, c, d] = m;
  const det = a * d - b * c;
  // m⁻¹
  const ia = d / det;
  const ib = -b / det;
  const ic = -c / det;
  const id = a / det;
  const out = new Float32Array(n * n);
  const half = n / 2;
  for (let y = 0; y < n; y++) {
    const qy = y + 0.5 - half;
    for (let x = 0; x < n; x++) {
      const qx = x + 0.5 - half;
      out[y * n + x] = sample(img, ia * qx + ib * qy + centre[0], ic * qx + id * qy + centre[1]);
    }
  }
  return out;
}
