// Whether a polygon ring crosses or touches itself (a "bow tie"), which GeoJSON forbids and which has
// no meaningful area. A sweep over the segments sorted by their left end compares only segments whose
// x ranges overlap, so an ordinary outline of thousands of vertices is checked in milliseconds.
import type { Position, Ring } from './annotation-shapes';

interface Segment {
  a: Position;
  b: Position;
  index: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/** Sign of the turn a → b → c: 1 left, -1 right, 0 collinear. */
function orient(a: Position, b: Position, c: Position): number {
  const v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/** Whether c, collinear with a–b, lies within the segment's box. */
const within = (a: Position, b: Position, c: Position) =>
  Math.min(a[0], b[0]) <= c[0] &&
  c[0] <= Math.max(a[0], b[0]) &&
  Math.min(a[1], b[1]) <= c[1] &&
  c[1] <= Math.max(a[1], b[1]);

function intersect(s: Segment, t: Segment): boolean {
  const o1 = orient(s.a, s.b, t.a);
  const o2 = orient(s.a, s.b, t.b);
  const o3 = orient(t.a, t.b, s.a);
  const o4 = orient(t.a, t.b, s.b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && within(s.a, s.b, t.a)) ||
    (o2 === 0 && within(s.a, s.b, t.b)) ||
    (o3 === 0 && within(t.a, t.b, s.a)) ||
    (o4 === 0 && within(t.a, t.b, s.b))
  );
}

/** True when two segments of the ring that are not neighbours meet. Repeated positions are ignored. */
export function ringCrossesItself(ring: Ring): boolean {
  // Drop repeated consecutive positions (and the closing one): a zero-length segment would "touch" others.
  const pts: Position[] = [];
  for (const p of ring) {
    const last = pts.at(-1);
    if (!last || last[0] !== p[0] || last[1] !== p[1]) pts.push(p);
  }
  if (pts.length > 1 && pts[0][0] === pts.at(-1)![0] && pts[0][1] === pts.at(-1)![1]) pts.pop();
  const n = pts.length;
  if (n < 4) return false;
  const segs: Segment[] = pts.map((a, index) => {
    const b = pts[(index + 1) % n];
    return {
      a,
      b,
      index,
      minX: Math.min(a[0], b[0]),
      maxX: Math.max(a[0], b[0]),
      minY: Math.min(a[1], b[1]),
      maxY: Math.max(a[1], b[1]),
    };
  });
  segs.sort((s, t) => s.minX - t.minX);
  const neighbours = (i: number, j: number) => {
    const d = Math.abs(i - j);
    return d === 1 || d === n - 1;
  };
  for (let i = 0; i < n; i++) {
    const s = segs[i];
    for (let j = i + 1; j < n && segs[j].minX <= s.maxX; j++) {
      const t = segs[j];
      if (t.maxY < s.minY || t.minY > s.maxY || neighbours(s.index, t.index)) continue;
      if (intersect(s, t)) return true;
    }
  }
  return false;
}
