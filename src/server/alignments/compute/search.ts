// The coarse-to-fine search for the rotation, mirror and shift that lay one tissue signal onto another.
// Both signals are drawn into square canvases centred on their tissue's centre; for each trial angle
// (and its mirror) the target is rotated about that centre and the shift comes from the peak of the
// FFT cross-correlation, whose height over the two canvases' norms (a cosine similarity, 0..1) scores
// the angle. A brute-force sweep of every few degrees on a small canvas finds the candidates; each finer
// level (twice the pixels) refines the best ones' angles by halving steps, and the shift at the finest.
import { correlationPeaks, spectrum } from './fft';
import { halve, placed, rotation, type GreyImage } from './image';
import type { Tissue } from './mask';

export interface Placement {
  degrees: number;
  mirrored: boolean;
  /** Working pixels: a target point w lands on the reference at M(w − target centre) + shift + reference centre. */
  shift: [number, number];
  /** Cosine similarity of the two signals so placed, 0..1. */
  score: number;
}

/** The largest canvas searched: 512² keeps one trial under ~0.1 s in plain TypeScript. */
export const MAX_CANVAS = 512;
/** The sweep's canvas: small enough for a few hundred trials in a fraction of a second. */
const SWEEP_CANVAS = 64;
const SWEEP_STEP_DEGREES = 3;
/** Refinement stops once the angle step is below this (at a 250-pixel radius, 0.05° is 0.2 pixels). */
const FINEST_STEP_DEGREES = 0.05;
/** Canvas room around the tissue, so a rotated, shifted signal does not wrap onto itself. */
const ROOM = 1.3;

interface Level {
  scale: number;
  n: number;
  ref: GreyImage;
  tgt: GreyImage;
  refCentre: [number, number];
  tgtCentre: [number, number];
  refSpectrum: { re: Float64Array; im: Float64Array };
  refNorm: number;
}

const nextPow2 = (v: number) => 2 ** Math.ceil(Math.log2(Math.max(2, v)));

function norm(a: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * a[i];
  return Math.sqrt(s);
}

/** The levels from the sweep's (first) to the finest, each with its reference spectrum. */
function levels(ref: Tissue, tgt: Tissue): Level[] {
  const span = 2 * Math.max(ref.radius, tgt.radius) * ROOM + 4;
  let finest = 0;
  while (nextPow2(span / 2 ** finest) > MAX_CANVAS) finest++;
  let coarsest = finest;
  while (nextPow2(span / 2 ** (coarsest + 1)) >= SWEEP_CANVAS) coarsest++;
  const out: Level[] = [];
  let r = ref.signal;
  let t = tgt.signal;
  for (let k = 0; k <= coarsest; k++) {
    if (k >= finest) {
      const scale = 2 ** k;
      const n = nextPow2(span / scale);
      const refCentre: [number, number] = [ref.centre[0] / scale, ref.centre[1] / scale];
      const canvas = placed(r, [1, 0, 0, 1], refCentre, n);
      out.push({
        scale,
        n,
        ref: r,
        tgt: t,
        refCentre,
        tgtCentre: [tgt.centre[0] / scale, tgt.centre[1] / scale],
        refSpectrum: spectrum(canvas, n),
        refNorm: norm(canvas),
      });
    }
    r = halve(r);
    t = halve(t);
  }
  return out.reverse();
}

type Angle = Pick<Placement, 'degrees' | 'mirrored'>;

/** Lets other work of the process run between the dearer trials, and stops when asked to. */
async function breathe(n: number, signal?: AbortSignal): Promise<void> {
  if (n < 128) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  signal?.throwIfAborted();
}

/** Scores the angles on one level, two per pair of transforms (fft.ts correlationPeaks). */
async function trials(level: Level, angles: Angle[], signal?: AbortSignal): Promise<Placement[]> {
  const out: Placement[] = [];
  const empty = new Float32Array(level.n * level.n);
  for (let i = 0; i < angles.length; i += 2) {
    const pair = angles.slice(i, i + 2);
    const canvases = pair.map((a) =>
      placed(level.tgt, rotation(a.degrees, a.mirrored), level.tgtCentre, level.n),
    );
    const peaks = correlationPeaks(level.refSpectrum, canvases[0], canvases[1] ?? empty, level.n);
    pair.forEach((a, k) => {
      const denominator = level.refNorm * norm(canvases[k]);
      out.push({
        ...a,
        shift: [peaks[k].dx * level.scale, peaks[k].dy * level.scale],
        score: denominator ? peaks[k].value / denominator : 0,
      });
    });
    await breathe(level.n, signal);
  }
  return out;
}

/** Sweeps every angle on the coarsest level; the best local maxima (per mirror) are the candidates. */
async function sweep(level: Level, keep: number, signal?: AbortSignal): Promise<Placement[]> {
  const steps = Math.round(360 / SWEEP_STEP_DEGREES);
  const found: Placement[] = [];
  for (const mirrored of [false, true]) {
    const ring = await trials(
      level,
      Array.from({ length: steps }, (_, i) => ({ degrees: i * SWEEP_STEP_DEGREES, mirrored })),
      signal,
    );
    ring.forEach((p, i) => {
      const before = ring[(i + steps - 1) % steps].score;
      const after = ring[(i + 1) % steps].score;
      if (p.score >= before && p.score >= after) found.push(p);
    });
  }
  return found.sort((a, b) => b.score - a.score).slice(0, keep);
}

/** Hill-climbs each candidate's angle by ±step, halving the step `times` times. */
async function refine(
  level: Level,
  from: Placement[],
  step: number,
  times: number,
  signal?: AbortSignal,
): Promise<Placement[]> {
  const out: Placement[] = [];
  for (const start of await trials(level, from, signal)) {
    let best = start;
    for (let i = 0, d = step; i < times; i++, d /= 2) {
      const around = await trials(
        level,
        [
          { degrees: best.degrees - d, mirrored: best.mirrored },
          { degrees: best.degrees + d, mirrored: best.mirrored },
        ],
        signal,
      );
      for (const p of around) if (p.score > best.score) best = p;
    }
    out.push(best);
  }
  return out;
}

/** How many candidates are still refined on a canvas of n pixels (fewer as trials get dearer). */
const keepFor = (n: number) => (n <= 128 ? 4 : n <= 256 ? 2 : 1);

/** The best placement of `tgt` on `ref`; yields to the event loop between dear trials (`signal` stops it). */
export async function searchPlacement(ref: Tissue, tgt: Tissue, signal?: AbortSignal): Promise<Placement> {
  const all = levels(ref, tgt);
  let candidates = await sweep(all[0], keepFor(all[0].n * 2), signal);
  let step = SWEEP_STEP_DEGREES / 2;
  // A small tissue has one level only: the sweep's, refined in place.
  for (let i = Math.min(1, all.length - 1); i < all.length; i++) {
    const level = all[i];
    const last = i === all.length - 1;
    // The finest level halves down to the finest step; the others twice each.
    const times = last ? Math.max(2, Math.ceil(Math.log2(step / FINEST_STEP_DEGREES)) + 1) : 2;
    candidates = (await refine(level, candidates, step, times, signal))
      .sort((a, b) => b.score - a.score)
      .slice(0, keepFor(level.n * 2));
    step /= 4;
  }
  const [best] = candidates;
  const degrees = ((((best.degrees + 180) % 360) + 360) % 360) - 180;
  return { ...best, degrees };
}
