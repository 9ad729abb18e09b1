// Outlines at the detail a zoom level can show: vertices closer than about a screen pixel to the last
// kept one are skipped (an outline of 200 vertices that covers 10 pixels on screen is drawn with a
// handful), and the result is kept per power-of-two zoom level, so a pan redraws without recomputing.
// Also the geometry a click needs: whether a point is inside an outline or near its edge.
import type { Outline } from './regions';

/**
 * The outline's vertices as flat [x0, y0, x1, y1, …] image pixels, skipping each vertex nearer than
 * `step` image pixels to the previous kept one (radial distance: one pass, no recursion). The first
 * vertex is always kept, and the last too when it is not within `step` of the first, so a closed
 * outline stays closed.
 */
export function thinOutline(outline: Outline, step: number): Float64Array {
  const n = outline.length;
  const out = new Float64Array(n * 2);
  if (n === 0) return out;
  const step2 = step * step;
  let [px, py] = outline[0];
  out[0] = px;
  out[1] = py;
  let k = 2;
  for (let i = 1; i < n; i++) {
    const [x, y] = outline[i];
    const dx = x - px;
    const dy = y - py;
    if (dx * dx + dy * dy < step2) continue;
    out[k++] = px = x;
    out[k++] = py = y;
  }
  return out.subarray(0, k);
}

/** The zoom level an image-to-screen scale falls in: scales within a factor of 2 share one. */
export const levelOf = (scale: number): number => Math.floor(Math.log2(scale));

/** The vertex spacing (image pixels) kept at a level: 0.75 to 1.5 screen pixels at the scales in it. */
export const stepOfLevel = (level: number): number => 0.75 / 2 ** level;

/** An outline thinned for each zoom level it has been drawn at. */
export class LevelCache {
  private readonly levels = new Map<number, Float64Array>();

  constructor(private readonly outline: Outline) {}

  at(scale: number): Float64Array {
    const level = levelOf(scale);
    let thin = this.levels.get(level);
    if (!thin) {
      thin = thinOutline(this.outline, stepOfLevel(level));
      this.levels.set(level, thin);
    }
    return thin;
  }
}

/** Whether (x, y) is inside the closed outline (even–odd rule). */
export function insideOutline(outline: Outline, x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const [xi, yi] = outline[i];
    const [xj, yj] = outline[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The distance from (x, y) to the outline's nearest edge (closed back to its start). */
export function distanceToOutline(outline: Outline, x: number, y: number): number {
  let best = Infinity;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const [ax, ay] = outline[j];
    const [bx, by] = outline[i];
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
    best = Math.min(best, Math.hypot(x - (ax + t * dx), y - (ay + t * dy)));
  }
  return best;
}
