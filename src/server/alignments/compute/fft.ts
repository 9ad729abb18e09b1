// Square 2-D FFT and cross-correlation for the rigid aligner: radix-2, in place, on Float64Arrays of
// real and imaginary parts. Plain TypeScript on purpose: the images are at most 512² here, which a
// radix-2 transform handles in tens of milliseconds, and no native dependency is needed.

/** Twiddles and bit-reversal table of one size, reused by every transform of that size. */
interface Plan {
  n: number;
  cos: Float64Array;
  sin: Float64Array;
  rev: Uint32Array;
}

const plans = new Map<number, Plan>();

function planFor(n: number): Plan {
  let plan = plans.get(n);
  if (plan) return plan;
  if (n < 2 || (n & (n - 1)) !== 0) throw new Error(`FFT size must be a power of two, got ${n}`);
  const cos = new Float64Array(n / 2);
  const sin = new Float64Array(n / 2);
  for (let i = 0; i < n / 2; i++) {
    cos[i] = Math.cos((2 * Math.PI * i) / n);
    sin[i] = Math.sin((2 * Math.PI * i) / n);
  }
  const bits = Math.log2(n);
  const rev = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    rev[i] = r;
  }
  plan = { n, cos, sin, rev };
  plans.set(n, plan);
  return plan;
}

/** One 1-D transform of `n` values at `offset` with `stride` (forward: e^-i; inverse unscaled). */
function fft1d(
  re: Float64Array,
  im: Float64Array,
  offset: number,
  stride: number,
  plan: Plan,
  inverse: boolean,
) {
  const { n, cos, sin, rev } = plan;
  for (let i = 0; i < n; i++) {
    const j = rev[i];
    if (j > i) {
      const a = offset + i * stride;
      const b = offset + j * stride;
      let t = re[a];
      re[a] = re[b];
      re[b] = t;
      t = im[a];
      im[a] = im[b];
      im[b] = t;
    }
  }
  const sign = inverse ? 1 : -1;
  for (let size = 2; size <= n; size <<= 1) {
    const half = size >> 1;
    const step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const wr = cos[k * step];
        const wi = sign * sin[k * step];
        const a = offset + (start + k) * stride;
        const b = a + half * stride;
        const xr = re[b] * wr - im[b] * wi;
        const xi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
}

/** Swaps an n×n array across its diagonal. */
function transpose(a: Float64Array, n: number): void {
  for (let y = 0; y < n; y++)
    for (let x = y + 1; x < n; x++) {
      const i = y * n + x;
      const j = x * n + y;
      const t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
}

/**
 * In-place 2-D transform of an n×n complex array (row-major). The inverse is scaled by 1/n². Columns
 * are done as rows of the transposed array: strided access would miss the cache on every butterfly.
 */
export function fft2d(re: Float64Array, im: Float64Array, n: number, inverse = false): void {
  const plan = planFor(n);
  for (let y = 0; y < n; y++) fft1d(re, im, y * n, 1, plan, inverse);
  transpose(re, n);
  transpose(im, n);
  for (let y = 0; y < n; y++) fft1d(re, im, y * n, 1, plan, inverse);
  transpose(re, n);
  transpose(im, n);
  if (inverse) {
    const scale = 1 / (n * n);
    for (let i = 0; i < re.length; i++) {
      re[i] *= scale;
      im[i] *= scale;
    }
  }
}

export interface Spectrum {
  re: Float64Array;
  im: Float64Array;
}

/** The spectrum of a real n×n image. */
export function spectrum(image: Float32Array, n: number): Spectrum {
  const re = Float64Array.from(image);
  const im = new Float64Array(n * n);
  fft2d(re, im, n);
  return { re, im };
}

export interface Peak {
  /** The circular shift (−n/2 … n/2) that best lays the second image onto the first, sub-pixel. */
  dx: number;
  dy: number;
  /** The correlation at the peak: Σ a(p + d)·b(p). */
  value: number;
}

/** The highest value of a circular n×n correlation, refined by a parabola through its neighbours. */
function peakOf(c: Float64Array, n: number): Peak {
  let best = 0;
  for (let i = 1; i < c.length; i++) if (c[i] > c[best]) best = i;
  const px = best % n;
  const py = Math.floor(best / n);
  const at = (x: number, y: number) => c[((y + n) % n) * n + ((x + n) % n)];
  const v = c[best];
  const sub = (minus: number, plus: number) => {
    const d = minus - 2 * v + plus;
    return d < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (minus - plus)) / d)) : 0;
  };
  const wrap = (k: number) => (k > n / 2 ? k - n : k);
  return {
    dx: wrap(px) + sub(at(px - 1, py), at(px + 1, py)),
    dy: wrap(py) + sub(at(px, py - 1), at(px, py + 1)),
    value: v,
  };
}

/**
 * The circular cross-correlations c(d) = Σ a(p + d)·b(p) of the real n×n image `a` (given by its
 * spectrum) with two real images b₁ and b₂ at once, and their peaks: a peak at d means b's content at
 * p sits at p + d in a. Two for the price of one transform each way: with Z the transform of
 * b₁ + i·b₂, the transform of c₁ + i·c₂ is A(k)·Z(−k), and c₁, c₂ are real.
 */
export function correlationPeaks(a: Spectrum, b1: Float32Array, b2: Float32Array, n: number): [Peak, Peak] {
  const re = Float64Array.from(b1);
  const im = Float64Array.from(b2);
  fft2d(re, im, n);
  const qr = new Float64Array(n * n);
  const qi = new Float64Array(n * n);
  for (let y = 0; y < n; y++) {
    const my = ((n - y) % n) * n;
    for (let x = 0; x < n; x++) {
      const i = y * n + x;
      const j = my + ((n - x) % n);
      qr[i] = a.re[i] * re[j] - a.im[i] * im[j];
      qi[i] = a.re[i] * im[j] + a.im[i] * re[j];
    }
  }
  fft2d(qr, qi, n, true);
  return [peakOf(qr, n), peakOf(qi, n)];
}
