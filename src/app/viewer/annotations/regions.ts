// What an annotation's free JSON content (§3) means to the viewer. Ours are either a note `{text}` or
// a drawn region: a GeoJSON Feature whose coordinates are pixels of the full-resolution image, with the
// note in `properties.text` (docs/decisions.md). Content written by other tools is shown as best we
// can: any GeoJSON polygon, multipolygon or line is drawn, anything else is listed as its JSON.

export type Point = readonly [number, number];
/** A closed outline in full-resolution image pixels. */
export type Outline = readonly Point[];

interface RegionFeature {
  type: 'Feature';
  geometry: { type: 'Polygon'; coordinates: number[][][] };
  properties: { text: string };
}

/** At most this many points are stored per outline: a freehand stroke of several seconds stays small. */
export const MAX_OUTLINE_POINTS = 400;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function pointsOf(ring: unknown): Outline | undefined {
  if (!Array.isArray(ring)) return undefined;
  const pts: Point[] = [];
  for (const p of ring) {
    if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'number') return undefined;
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) return undefined;
    pts.push([p[0], p[1]]);
  }
  return pts.length >= 2 ? pts : undefined;
}

function outlinesOfGeometry(geometry: unknown): Outline[] {
  if (!isRecord(geometry)) return [];
  const c = geometry.coordinates;
  switch (geometry.type) {
    case 'Polygon':
      return Array.isArray(c) ? [pointsOf(c[0])].filter((o): o is Outline => !!o) : [];
    case 'MultiPolygon':
      return Array.isArray(c)
        ? c
            .map((poly) => (Array.isArray(poly) ? pointsOf(poly[0]) : undefined))
            .filter((o): o is Outline => !!o)
        : [];
    case 'LineString':
      return [pointsOf(c)].filter((o): o is Outline => !!o);
    case 'GeometryCollection':
      return Array.isArray(geometry.geometries) ? geometry.geometries.flatMap(outlinesOfGeometry) : [];
    default:
      return [];
  }
}

/** The outlines an annotation's content draws; none for a plain note. */
export function outlinesOf(content: unknown): Outline[] {
  if (!isRecord(content)) return [];
  if (content.type === 'Feature') return outlinesOfGeometry(content.geometry);
  if (content.type === 'FeatureCollection' && Array.isArray(content.features))
    return content.features.flatMap((f) => (isRecord(f) ? outlinesOfGeometry(f.geometry) : []));
  return outlinesOfGeometry(content);
}

/** What the overlay draws of a geometry: closed outlines, open lines, and points (one position each). */
export interface Mark {
  points: Outline;
  closed: boolean;
}

/** A mark's SVG path; a point is a zero-length closed path, drawn as a dot by round caps. */
export const markPath = ({ points, closed }: Mark): string =>
  points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x} ${y}`).join(' ') +
  (closed || points.length === 1 ? ' Z' : '');

function positionsOf(list: unknown): Point[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((p) => pointsOf([p, p])?.slice(0, 1) ?? []);
}

function marksOfGeometry(geometry: unknown): Mark[] {
  if (!isRecord(geometry)) return [];
  const c = geometry.coordinates;
  const lines = (list: unknown, closed: boolean): Mark[] =>
    (Array.isArray(list) ? list : [])
      .map(pointsOf)
      .filter((o): o is Outline => !!o)
      .map((points) => ({ points, closed }));
  switch (geometry.type) {
    case 'Polygon':
    case 'MultiPolygon':
    case 'LineString':
      return outlinesOfGeometry(geometry).map((points) => ({
        points,
        closed: geometry.type !== 'LineString',
      }));
    case 'MultiLineString':
      return lines(c, false);
    case 'Point':
      return positionsOf([c]).map((p) => ({ points: [p], closed: false }));
    case 'MultiPoint':
      return positionsOf(c).map((p) => ({ points: [p], closed: false }));
    case 'GeometryCollection':
      return Array.isArray(geometry.geometries) ? geometry.geometries.flatMap(marksOfGeometry) : [];
    default:
      return [];
  }
}

/**
 * Everything an annotation's content draws, each part as it is: polygons closed, lines open (a ruler
 * or a polyline is not a region), points as single positions. None for a plain note.
 */
export function marksOf(content: unknown): Mark[] {
  if (!isRecord(content)) return [];
  if (content.type === 'Feature') return marksOfGeometry(content.geometry);
  if (content.type === 'FeatureCollection' && Array.isArray(content.features))
    return content.features.flatMap((f) => (isRecord(f) ? marksOfGeometry(f.geometry) : []));
  return marksOfGeometry(content);
}

/** The note of an annotation's content, whatever its form. */
export function noteOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (isRecord(content)) {
    if (typeof content.text === 'string') return content.text;
    const props = content.properties;
    if (isRecord(props) && typeof props.text === 'string') return props.text;
    if (outlinesOf(content).length > 0) return '';
  }
  const json = JSON.stringify(content ?? null);
  return json.length > 200 ? `${json.slice(0, 200)}…` : json;
}

/** The content with its note replaced; a region keeps its outline. */
export function withNote(content: unknown, text: string): unknown {
  if (isRecord(content) && content.type === 'Feature') {
    const props = isRecord(content.properties) ? content.properties : {};
    return { ...content, properties: { ...props, text } };
  }
  return { text };
}

/** Perpendicular distance of p from the line through a and b. */
function distance(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy);
  if (len === 0) return Math.hypot(p[0] - a[0], p[1] - a[1]);
  return Math.abs(dy * p[0] - dx * p[1] + b[0] * a[1] - b[1] * a[0]) / len;
}

/** Ramer–Douglas–Peucker: the points that keep the shape within `tolerance` pixels. */
function simplifyWithin(points: readonly Point[], tolerance: number): Point[] {
  if (points.length <= 2) return [...points];
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop()!;
    let worst = -1;
    let worstAt = first;
    for (let i = first + 1; i < last; i++) {
      const d = distance(points[i], points[first], points[last]);
      if (d > worst) [worst, worstAt] = [d, i];
    }
    if (worst > tolerance) {
      keep[worstAt] = 1;
      stack.push([first, worstAt], [worstAt, last]);
    }
  }
  return points.filter((_, i) => keep[i] === 1);
}

/** A freehand stroke as a stored outline: integer pixels, at most MAX_OUTLINE_POINTS points. */
export function simplifyOutline(points: readonly Point[], tolerance = 1): Point[] {
  const rounded = points.map(([x, y]) => [Math.round(x), Math.round(y)] as Point);
  let tol = tolerance;
  let out = simplifyWithin(rounded, tol);
  while (out.length > MAX_OUTLINE_POINTS) {
    tol *= 2;
    out = simplifyWithin(rounded, tol);
  }
  return out;
}

/** Twice the signed area (shoelace): a stroke that encloses nothing is not a region. */
export function outlineArea(points: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    const [x1, y1] = points[i];
    const [x2, y2] = points[(i + 1) % points.length];
    sum += x1 * y2 - x2 * y1;
  }
  return Math.abs(sum) / 2;
}

/** The stored content of a drawn region: a closed GeoJSON polygon in image pixels and its note. */
export function regionContent(outline: readonly Point[], text: string): RegionFeature {
  const ring = outline.map(([x, y]) => [x, y]);
  const [x0, y0] = outline[0];
  const [xn, yn] = outline[outline.length - 1];
  if (x0 !== xn || y0 !== yn) ring.push([x0, y0]);
  return { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: { text } };
}
