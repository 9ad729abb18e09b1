// Test-only generator of tissue-like slide pictures with a known placement: pink tissue of a few
// overlapping lobes with a ragged outline, stain texture and purple nuclei on pale glass, defined at
// every continuous level-0 point, so a target picture is drawn exactly through the true matrix (no
// resampling of a resampled image). A "serial section" variant bends the outline a little and draws
// other nuclei, as the next cut of the same block looks.
import type { RgbImage } from '../../../src/server/alignments/compute/image';

/** Deterministic pseudo-random in [0, 1) of integers. */
function hash(...v: number[]): number {
  let h = 2166136261;
  for (const x of v) {
    h ^= x | 0;
    h = Math.imul(h, 16777619);
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
  }
  h ^= h >>> 15;
  return (h >>> 0) / 4294967296;
}

/** Smooth value noise in [0, 1) with a lattice of `cell` units. */
function noise(seed: number, x: number, y: number, cell: number): number {
  const gx = x / cell;
  const gy = y / cell;
  const x0 = Math.floor(gx);
  const y0 = Math.floor(gy);
  const s = (t: number) => t * t * (3 - 2 * t);
  const tx = s(gx - x0);
  const ty = s(gy - y0);
  const v = (i: number, j: number) => hash(seed, x0 + i, y0 + j);
  return (v(0, 0) * (1 - tx) + v(1, 0) * tx) * (1 - ty) + (v(0, 1) * (1 - tx) + v(1, 1) * tx) * ty;
}

export interface TissueSpec {
  seed: number;
  /** Where the tissue's middle lies and how large it is, level-0 pixels. */
  centre: [number, number];
  size: number;
  /** Another section of the same block: a bent outline, other nuclei. */
  serial?: boolean;
}

type Colour = [number, number, number];
export type Field = (x: number, y: number) => Colour;

/** The tissue's colour at a continuous level-0 point. */
export function tissueField(spec: TissueSpec): Field {
  const { seed, centre, size } = spec;
  const r = (i: number) => hash(seed, 1000 + i);
  // Three lobes of different sizes and tilts: no symmetry, so one rotation fits.
  const lobes = [0, 1, 2].map((i) => ({
    cx: centre[0] + (r(i * 5) - 0.5) * size * 0.5,
    cy: centre[1] + (r(i * 5 + 1) - 0.5) * size * 0.5,
    ax: size * (0.18 + 0.22 * r(i * 5 + 2)),
    ay: size * (0.1 + 0.14 * r(i * 5 + 3)),
    tilt: r(i * 5 + 4) * Math.PI,
  }));
  const bendSeed = seed + 77;
  const nucleiSeed = spec.serial ? seed + 991 : seed + 3;
  const cell = size / 40;
  return (px, py) => {
    let x = px;
    let y = py;
    if (spec.serial) {
      // The next section is bent by up to ~0.6 % of the tissue size.
      x += (noise(bendSeed, px, py, size / 3) - 0.5) * size * 0.012;
      y += (noise(bendSeed + 1, px, py, size / 3) - 0.5) * size * 0.012;
    }
    let inside = -Infinity;
    for (const l of lobes) {
      const dx = x - l.cx;
      const dy = y - l.cy;
      const u = (dx * Math.cos(l.tilt) + dy * Math.sin(l.tilt)) / l.ax;
      const v = (-dx * Math.sin(l.tilt) + dy * Math.cos(l.tilt)) / l.ay;
      inside = Math.max(inside, 1 - u * u - v * v);
    }
    inside += (noise(seed + 11, x, y, size / 12) - 0.5) * 0.35;
    const glass = 238 + 8 * noise(seed + 5, px, py, size / 5);
    if (inside <= 0) return [glass, glass, glass + 2];
    const stain = 0.6 + 0.6 * noise(seed + 21, x, y, size / 25);
    let c: Colour = [255 - 40 * stain, 255 - 120 * stain, 255 - 70 * stain];
    // A nucleus near the middle of some lattice cells.
    const gi = Math.floor(px / cell);
    const gj = Math.floor(py / cell);
    if (hash(nucleiSeed, gi, gj) < 0.6) {
      const nx = (gi + 0.2 + 0.6 * hash(nucleiSeed, gi, gj, 1)) * cell;
      const ny = (gj + 0.2 + 0.6 * hash(nucleiSeed, gi, gj, 2)) * cell;
      if (Math.hypot(px - nx, py - ny) < cell * 0.3) c = [110, 50, 140];
    }
    return c;
  };
}

/** 2×3 matrix [[a, b, tx], [c, d, ty]] on continuous coordinates. */
export type Matrix = [[number, number, number], [number, number, number]];

/** Rotation by `degrees` clockwise on screen after a left–right flip when `mirrored`, then a shift. */
export function rigid(degrees: number, mirrored: boolean, tx: number, ty: number): Matrix {
  const r = (degrees * Math.PI) / 180;
  const [c, s] = [Math.cos(r), Math.sin(r)];
  return mirrored
    ? [
        [-c, -s, tx],
        [-s, c, ty],
      ]
    : [
        [c, -s, tx],
        [s, c, ty],
      ];
}

export const apply = (m: Matrix, x: number, y: number): [number, number] => [
  m[0][0] * x + m[0][1] * y + m[0][2],
  m[1][0] * x + m[1][1] * y + m[1][2],
];

/**
 * A picture `width`×`height` of a level-0 image `level0Width` wide whose point P shows `field` at
 * `toField`(P) (identity when absent): each picture pixel averages 2×2 samples, as a thumbnail would.
 */
export function picture(
  field: Field,
  level0: { width: number; height: number },
  width: number,
  toField?: Matrix,
): RgbImage {
  const scale = level0.width / width;
  const height = Math.round(level0.height / scale);
  const data = new Uint8Array(width * height * 3);
  for (let j = 0; j < height; j++)
    for (let i = 0; i < width; i++) {
      const sum = [0, 0, 0];
      for (let sj = 0; sj < 2; sj++)
        for (let si = 0; si < 2; si++) {
          const x = (i + (si + 0.5) / 2) * scale;
          const y = (j + (sj + 0.5) / 2) * scale;
          const [fx, fy] = toField ? apply(toField, x, y) : [x, y];
          const c = field(fx, fy);
          for (let k = 0; k < 3; k++) sum[k] += c[k];
        }
      for (let k = 0; k < 3; k++) data[(j * width + i) * 3 + k] = Math.round(sum[k] / 4);
    }
  return { width, height, data, channels: 3 };
}

/**
 * The truth in the API's pixel-index form (pixel (x, y) centred at (x + ½, y + ½) continuously), and the
 * worst distance between where it and `found` put the target's corners, over the reference's long side.
 */
export function cornerError(
  truth: Matrix,
  found: Matrix,
  target: { width: number; height: number },
  reference: { width: number; height: number },
): number {
  const [[a, b, tx], [c, d, ty]] = truth;
  const pixelTruth: Matrix = [
    [a, b, tx + 0.5 * (a + b) - 0.5],
    [c, d, ty + 0.5 * (c + d) - 0.5],
  ];
  let worst = 0;
  for (const [x, y] of [
    [0, 0],
    [target.width, 0],
    [0, target.height],
    [target.width, target.height],
  ]) {
    const [ex, ey] = apply(pixelTruth, x, y);
    const [fx, fy] = apply(found, x, y);
    worst = Math.max(worst, Math.hypot(ex - fx, ey - fy));
  }
  return worst / Math.max(reference.width, reference.height);
}
