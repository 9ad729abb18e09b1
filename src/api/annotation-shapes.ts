// The shapes an annotation's content describes, read from its GeoJSON (coordinates are level-0 pixels
// of the image, x to the right, y down). GeoJSON has no rectangle or ellipse: their geometry is a
// polygon (what QuPath and any GeoJSON reader draws), and `properties.shape` keeps the exact figure so
// that measurements are exact. Shared by the app (drawing, panel) and the server (GeoJSON import).

export type Position = readonly [number, number];
export type Ring = readonly Position[];

/** The exact figure behind a drawn rectangle or ellipse (axis-aligned, level-0 pixels). */
export type ShapeHint =
  | { type: 'rectangle'; x: number; y: number; width: number; height: number }
  | { type: 'ellipse'; cx: number; cy: number; rx: number; ry: number };

/** One measurable figure: polygons (outer ring first, then holes), lines and points. */
export type Figure =
  | { kind: 'polygon'; rings: readonly Ring[] }
  | { kind: 'rectangle'; x: number; y: number; width: number; height: number }
  | { kind: 'ellipse'; cx: number; cy: number; rx: number; ry: number }
  | { kind: 'polyline'; points: Ring }
  | { kind: 'point'; points: Ring };

/** Vertices of the polygon that stands for an ellipse: the area it misses is under 0.2%. */
export const ELLIPSE_VERTICES = 64;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** `[x, y]` (a third coordinate is allowed and ignored), else undefined. */
export function positionOf(p: unknown): Position | undefined {
  if (!Array.isArray(p) || p.length < 2 || !finite(p[0]) || !finite(p[1])) return undefined;
  return [p[0], p[1]];
}

function positionsOf(list: unknown): Position[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: Position[] = [];
  for (const p of list) {
    const pos = positionOf(p);
    if (!pos) return undefined;
    out.push(pos);
  }
  return out;
}

/** The hint when it is well formed (positive sizes), else undefined. */
export function shapeHintOf(v: unknown): ShapeHint | undefined {
  if (!isRecord(v)) return undefined;
  if (v.type === 'rectangle' && [v.x, v.y, v.width, v.height].every(finite)) {
    const { x, y, width, height } = v as Record<string, number>;
    return width > 0 && height > 0 ? { type: 'rectangle', x, y, width, height } : undefined;
  }
  if (v.type === 'ellipse' && [v.cx, v.cy, v.rx, v.ry].every(finite)) {
    const { cx, cy, rx, ry } = v as Record<string, number>;
    return rx > 0 && ry > 0 ? { type: 'ellipse', cx, cy, rx, ry } : undefined;
  }
  return undefined;
}

/** The closed ring (first position repeated last) that a rectangle or an ellipse is stored as. */
export function ringOfHint(hint: ShapeHint): Position[] {
  if (hint.type === 'rectangle') {
    const { x, y, width: w, height: h } = hint;
    return [
      [x, y],
      [x + w, y],
      [x + w, y + h],
      [x, y + h],
      [x, y],
    ];
  }
  const ring: Position[] = [];
  for (let i = 0; i < ELLIPSE_VERTICES; i++) {
    const t = (2 * Math.PI * i) / ELLIPSE_VERTICES;
    ring.push([hint.cx + hint.rx * Math.cos(t), hint.cy + hint.ry * Math.sin(t)]);
  }
  ring.push(ring[0]);
  return ring;
}

/** The figures of a GeoJSON geometry; malformed parts are left out. */
export function figuresOfGeometry(geometry: unknown): Figure[] {
  if (!isRecord(geometry)) return [];
  const c = geometry.coordinates;
  const polygon = (rings: unknown): Figure[] => {
    if (!Array.isArray(rings)) return [];
    const parsed = rings.map(positionsOf);
    if (parsed.length === 0 || parsed.some((r) => !r || r.length < 3)) return [];
    return [{ kind: 'polygon', rings: parsed as Position[][] }];
  };
  const line = (points: unknown): Figure[] => {
    const parsed = positionsOf(points);
    return parsed && parsed.length >= 2 ? [{ kind: 'polyline', points: parsed }] : [];
  };
  switch (geometry.type) {
    case 'Polygon':
      return polygon(c);
    case 'MultiPolygon':
      return Array.isArray(c) ? c.flatMap(polygon) : [];
    case 'LineString':
      return line(c);
    case 'MultiLineString':
      return Array.isArray(c) ? c.flatMap(line) : [];
    case 'Point': {
      const p = positionOf(c);
      return p ? [{ kind: 'point', points: [p] }] : [];
    }
    case 'MultiPoint': {
      const ps = positionsOf(c);
      return ps && ps.length > 0 ? [{ kind: 'point', points: ps }] : [];
    }
    case 'GeometryCollection':
      return Array.isArray(geometry.geometries) ? geometry.geometries.flatMap(figuresOfGeometry) : [];
    default:
      return [];
  }
}

/** A Feature's figures: its exact rectangle or ellipse when `properties.shape` says so, else its geometry. */
function figuresOfFeature(feature: Record<string, unknown>): Figure[] {
  const props = isRecord(feature.properties) ? feature.properties : {};
  const hint = shapeHintOf(props.shape);
  if (hint?.type === 'rectangle') return [{ kind: 'rectangle', ...hint }];
  if (hint?.type === 'ellipse') return [{ kind: 'ellipse', ...hint }];
  return figuresOfGeometry(feature.geometry);
}

/** The figures of an annotation's content (a Feature, a FeatureCollection or a bare geometry); none for a note. */
export function figuresOf(content: unknown): Figure[] {
  if (!isRecord(content)) return [];
  if (content.type === 'Feature') return figuresOfFeature(content);
  if (content.type === 'FeatureCollection' && Array.isArray(content.features))
    return content.features.flatMap((f) => (isRecord(f) ? figuresOfFeature(f) : []));
  return figuresOfGeometry(content);
}
