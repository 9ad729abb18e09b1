// Pixel math of the viewer options (exposure, gamma, saturation, contrast, brightness) and of the
// fluorescence channel display (window and colour), applied per tile. Pure functions: unit-tested.

export interface ViewerOptions {
  /** Stops: each +1 doubles the light. */
  exposure: number;
  /** > 1 brightens mid-tones. */
  gamma: number;
  /** 0 = grey, 1 = as scanned, 2 = twice as vivid (brightfield). */
  saturation: number;
  /** 1 = unchanged. */
  contrast: number;
  /** Added light, -1…1. */
  brightness: number;
}

export const DEFAULT_OPTIONS: ViewerOptions = {
  exposure: 0,
  gamma: 1,
  saturation: 1,
  contrast: 1,
  brightness: 0,
};

export interface ChannelDisplay {
  visible: boolean;
  /** 0..255 each */
  color: [number, number, number];
  /** Display window on the tile's 8-bit values (the server already mapped the data range to 0..255). */
  min: number;
  max: number;
}

/** A 256-entry lookup table: window → exposure → contrast → brightness → gamma, clamped. */
export function buildLut(
  o: ViewerOptions,
  window: { min: number; max: number } = { min: 0, max: 255 },
): Uint8Array {
  const lut = new Uint8Array(256);
  const span = Math.max(1, window.max - window.min);
  const gain = 2 ** o.exposure;
  for (let i = 0; i < 256; i++) {
    let v = (i - window.min) / span;
    v = Math.min(1, Math.max(0, v)) * gain;
    v = (v - 0.5) * o.contrast + 0.5 + o.brightness;
    v = Math.min(1, Math.max(0, v));
    v = v ** (1 / Math.max(0.05, o.gamma));
    lut[i] = Math.round(v * 255);
  }
  return lut;
}

/** In place, RGBA: lookup per channel, then saturation around the pixel's luma. */
export function adjustRgba(data: Uint8ClampedArray, lut: Uint8Array, saturation: number): void {
  for (let i = 0; i < data.length; i += 4) {
    let r = lut[data[i]];
    let g = lut[data[i + 1]];
    let b = lut[data[i + 2]];
    if (saturation !== 1) {
      const y = 0.299 * r + 0.587 * g + 0.114 * b;
      r = y + (r - y) * saturation;
      g = y + (g - y) * saturation;
      b = y + (b - y) * saturation;
    }
    data[i] = r;
    data[i + 1] = g;
    data[i + 2] = b;
  }
}

/** In place, RGBA holding a grey tile: lookup, then tint with the channel colour (for additive compositing). */
export function colorizeRgba(
  data: Uint8ClampedArray,
  lut: Uint8Array,
  color: [number, number, number],
): void {
  const [cr, cg, cb] = color;
  for (let i = 0; i < data.length; i += 4) {
    const v = lut[data[i]] / 255;
    data[i] = v * cr;
    data[i + 1] = v * cg;
    data[i + 2] = v * cb;
    data[i + 3] = 255;
  }
}

export function hexToRgb(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return m ? [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)] : [255, 255, 255];
}

/** A scale-bar length that reads well: 1, 2 or 5 × 10ⁿ µm, close to `targetUm`. */
export function niceLength(targetUm: number): { um: number; label: string } {
  const pow = 10 ** Math.floor(Math.log10(Math.max(targetUm, 1e-6)));
  const um = [5, 2, 1].map((m) => m * pow).find((v) => v <= targetUm) ?? pow;
  return { um, label: um >= 1000 ? `${um / 1000} mm` : `${um >= 1 ? um : um.toPrecision(1)} µm` };
}
