// The geometry a drawing tool makes and the select tool edits, in level-0 image pixels (x right, y
// down), and how it is stored in an annotation's content: a GeoJSON Feature (regions.ts) with a Polygon
// for rectangle, ellipse, polygon and freehand, a LineString for polyline and ruler, a Point for a
// point. A rectangle or an ellipse also keeps its exact figure in `properties.shape`
// (src/api/annotation-shapes.ts), so it measures exactly and is resized as itself, not vertex by vertex.
import { ringOfHint, shapeHintOf, type ShapeHint } from '../../../../api/annotation-shapes';
import type { Point } from '../regions';

export type ToolGeometry =
  | { type: 'Polygon'; ring: Point[]; shape?: ShapeHint }
  | { type: 'LineString'; points: Point[] }
  | { type: 'Point'; point: Point };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whole pixels: sub-pixel precision means nothing on a slide and doubles the stored JSON. */
const px = (v: number) => Math.round(v);
/** The ellipse's own vertices keep two decimals, so its polygon stays symmetric. */
const cent = (v: number) => Math.round(v * 100) / 100;

/** The open vertex list of a polygon ring (the closing repeat of the first vertex left out). */
export function openRing(ring: readonly Point[]): Point[] {
  const n = ring.length;
  if (n > 1 && ring[0][0] === ring[n - 1][0] && ring[0][1] === ring[n - 1][1]) return ring.slice(0, -1);
  return [...ring];
}

const closeRing = (ring: readonly Point[]): Point[] => {
  const open = openRing(ring);
  return open.length ? [...open, open[0]] : [];
};

/** An axis-aligned rectangle from two opposite corners (in any order). */
export function rectangleFrom(a: Point, b: Point): ToolGeometry {
  const x = px(Math.min(a[0], b[0]));
  const y = px(Math.min(a[1], b[1]));
  const hint: ShapeHint = {
    type: 'rectangle',
    x,
    y,
    width: px(Math.max(a[0], b[0])) - x,
    height: px(Math.max(a[1], b[1])) - y,
  };
  return { type: 'Polygon', ring: ringOfHint(hint), shape: hint };
}

/** An axis-aligned ellipse inscribed in the box spanned by two opposite corners. */
export function ellipseFrom(a: Point, b: Point): ToolGeometry {
  const hint: ShapeHint = {
    type: 'ellipse',
    cx: cent((a[0] + b[0]) / 2),
    cy: cent((a[1] + b[1]) / 2),
    rx: cent(Math.abs(b[0] - a[0]) / 2),
    ry: cent(Math.abs(b[1] - a[1]) / 2),
  };
  return ellipseOf(hint);
}

function ellipseOf(hint: Extract<ShapeHint, { type: 'ellipse' }>): ToolGeometry {
  const ring = ringOfHint(hint).map(([x, y]) => [cent(x), cent(y)] as Point);
  return { type: 'Polygon', ring, shape: hint };
}

const rectangleOf = (hint: Extract<ShapeHint, { type: 'rectangle' }>): ToolGeometry => ({
  type: 'Polygon',
  ring: ringOfHint(hint),
  shape: hint,
});

export const polygonOf = (points: readonly Point[]): ToolGeometry => ({
  type: 'Polygon',
  ring: closeRing(points.map(([x, y]) => [px(x), px(y)] as Point)),
});

export const lineOf = (points: readonly Point[]): ToolGeometry => ({
  type: 'LineString',
  points: points.map(([x, y]) => [px(x), px(y)] as Point),
});

export const pointOf = (p: Point): ToolGeometry => ({ type: 'Point', point: [px(p[0]), px(p[1])] });

/** The GeoJSON geometry object stored in the content. */
export function geoJsonOf(g: ToolGeometry): { type: string; coordinates: unknown } {
  switch (g.type) {
    case 'Polygon':
      return { type: 'Polygon', coordinates: [g.ring.map(([x, y]) => [x, y])] };
    case 'LineString':
      return { type: 'LineString', coordinates: g.points.map(([x, y]) => [x, y]) };
    case 'Point':
      return { type: 'Point', coordinates: [g.point[0], g.point[1]] };
  }
}

/**
 * The content with this geometry: a new Feature with the note, or an existing content whose other
 * properties (note, class) are kept and whose geometry and exact figure are replaced.
 */
export function contentWithGeometry(g: ToolGeometry, base: unknown = {}): Record<string, unknown> {
  const feature = isRecord(base) && base.type === 'Feature' ? base : undefined;
  const props: Record<string, unknown> =
    feature && isRecord(feature.properties)
      ? { ...feature.properties }
      : { text: isRecord(base) && typeof base.text === 'string' ? base.text : '' };
  delete props.shape;
  if (g.type === 'Polygon' && g.shape) props.shape = g.shape;
  return { ...feature, type: 'Feature', geometry: geoJsonOf(g), properties: props };
}

/** A new annotation's content: the geometry and its note. */
export const contentOf = (g: ToolGeometry, text: string) => contentWithGeometry(g, { text });

function positions(list: unknown): Point[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: Point[] = [];
  for (const p of list) {
    if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'number') return undefined;
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) return undefined;
    out.push([p[0], p[1]]);
  }
  return out;
}

/**
 * The geometry of a content the tools can edit: a Feature (or bare geometry) holding one Polygon
 * without holes, one LineString or one Point. Anything else (multi-parts, holes, notes) is undefined:
 * it can be selected and deleted but not reshaped.
 */
export function editableGeometryOf(content: unknown): ToolGeometry | undefined {
  if (!isRecord(content)) return undefined;
  const geometry = content.type === 'Feature' ? content.geometry : content;
  if (!isRecord(geometry)) return undefined;
  const c = geometry.coordinates;
  switch (geometry.type) {
    case 'Polygon': {
      if (!Array.isArray(c) || c.length !== 1) return undefined;
      const ring = positions(c[0]);
      if (!ring || openRing(ring).length < 3) return undefined;
      const props = isRecord(content.properties) ? content.properties : {};
      const shape = shapeHintOf(props.shape);
      return shape ? { type: 'Polygon', ring, shape } : { type: 'Polygon', ring };
    }
    case 'LineString': {
      const points = positions(c);
      return points && points.length >= 2 ? { type: 'LineString', points } : undefined;
    }
    case 'Point': {
      const p = positions([c]);
      return p ? { type: 'Point', point: p[0] } : undefined;
    }
    default:
      return undefined;
  }
}

/** The geometry moved by (dx, dy) image pixels (whole pixels, so that a move is exact). */
export function translate(g: ToolGeometry, dx: number, dy: number): ToolGeometry {
  const [mx, my] = [px(dx), px(dy)];
  const by = ([x, y]: Point): Point => [x + mx, y + my];
  switch (g.type) {
    case 'Polygon': {
      if (g.shape?.type === 'rectangle')
        return rectangleOf({ ...g.shape, x: g.shape.x + mx, y: g.shape.y + my });
      if (g.shape?.type === 'ellipse')
        return ellipseOf({ ...g.shape, cx: g.shape.cx + mx, cy: g.shape.cy + my });
      return { type: 'Polygon', ring: g.ring.map(by) };
    }
    case 'LineString':
      return { type: 'LineString', points: g.points.map(by) };
    case 'Point':
      return { type: 'Point', point: by(g.point) };
  }
}

/**
 * The handles the select tool shows for reshaping: a rectangle's four corners, an ellipse's four axis
 * ends, every vertex of a polygon or line, the point itself.
 */
export function handlesOf(g: ToolGeometry): Point[] {
  switch (g.type) {
    case 'Polygon': {
      if (g.shape?.type === 'rectangle') return openRing(g.ring);
      if (g.shape?.type === 'ellipse') {
        const { cx, cy, rx, ry } = g.shape;
        return [
          [cx + rx, cy],
          [cx, cy + ry],
          [cx - rx, cy],
          [cx, cy - ry],
        ];
      }
      return openRing(g.ring);
    }
    case 'LineString':
      return g.points;
    case 'Point':
      return [g.point];
  }
}

/**
 * The geometry with handle `index` (as numbered by handlesOf) dragged to `to`. A rectangle's corner
 * drags against the opposite corner; an ellipse's axis end changes that radius; a polygon's first vertex
 * also moves the ring's closing repeat.
 */
export function moveHandle(g: ToolGeometry, index: number, to: Point): ToolGeometry {
  const p: Point = [px(to[0]), px(to[1])];
  switch (g.type) {
    case 'Polygon': {
      if (g.shape?.type === 'rectangle') {
        const corners = openRing(g.ring);
        return rectangleFrom(corners[(index + 2) % 4], p);
      }
      if (g.shape?.type === 'ellipse') {
        const { cx, cy } = g.shape;
        const horizontal = index % 2 === 0;
        const r = Math.max(1, cent(horizontal ? Math.abs(to[0] - cx) : Math.abs(to[1] - cy)));
        return ellipseOf(horizontal ? { ...g.shape, rx: r } : { ...g.shape, ry: r });
      }
      const open = openRing(g.ring);
      if (index < 0 || index >= open.length) return g;
      open[index] = p;
      return { type: 'Polygon', ring: closeRing(open) };
    }
    case 'LineString': {
      if (index < 0 || index >= g.points.length) return g;
      const points = [...g.points];
      points[index] = p;
      return { type: 'LineString', points };
    }
    case 'Point':
      return { type: 'Point', point: p };
  }
}

/** Distance from p to the segment a–b. */
export function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Whether p is inside the ring (even–odd rule). */
export function insideRing(p: Point, ring: readonly Point[]): boolean {
  let inside = false;
  const open = openRing(ring);
  for (let i = 0, j = open.length - 1; i < open.length; j = i++) {
    const [xi, yi] = open[i];
    const [xj, yj] = open[j];
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether a press at p (image pixels) is on the geometry: inside a polygon, within `tolerance` of a line or a point. */
export function hits(g: ToolGeometry, p: Point, tolerance: number): boolean {
  switch (g.type) {
    case 'Polygon': {
      if (insideRing(p, g.ring)) return true;
      return g.ring.some((a, i) => i > 0 && segmentDistance(p, g.ring[i - 1], a) <= tolerance);
    }
    case 'LineString':
      return g.points.some((a, i) => i > 0 && segmentDistance(p, g.points[i - 1], a) <= tolerance);
    case 'Point':
      return Math.hypot(p[0] - g.point[0], p[1] - g.point[1]) <= tolerance;
  }
}

/** The handle within `tolerance` of p (the nearest), or -1. */
export function handleAt(g: ToolGeometry, p: Point, tolerance: number): number {
  let best = -1;
  let bestDistance = tolerance;
  handlesOf(g).forEach(([x, y], i) => {
    const d = Math.hypot(p[0] - x, p[1] - y);
    if (d <= bestDistance) [best, bestDistance] = [i, d];
  });
  return best;
}
