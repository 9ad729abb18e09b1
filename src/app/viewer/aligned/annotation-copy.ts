// An annotation's content carried from one aligned image to the other: every GeoJSON position (level-0
// pixels of its image, regions.ts) goes through the alignment's matrix or its inverse; everything else
// (the note, the class, other tools' properties) is kept as it is. A note without geometry is copied
// unchanged. A mirrored alignment turns outlines over, so polygon rings are reversed to keep their
// winding. A rectangle's or ellipse's exact figure (`properties.shape`, axis-aligned) goes through the
// matrix too when the matrix keeps axes and their directions; a turned or mirrored copy is its polygon
// alone, since the figure no longer describes it (and the tools would rebuild it where it was).
import { shapeHintOf, type ShapeHint } from '../../../api/annotation-shapes';
import { applyAffine, type Affine } from './aligned-transform';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

type Map2 = (p: readonly [number, number]) => [number, number];

/** One position; a third (and further) number, such as an elevation, is kept. */
function mapPosition(p: unknown, map: Map2): unknown {
  if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'number') return p;
  return [...map([p[0], p[1]]), ...(p.slice(2) as unknown[])];
}

const mapList = (list: unknown, f: (v: unknown) => unknown) => (Array.isArray(list) ? list.map(f) : list);

function mapGeometry(geometry: unknown, map: Map2, mirrored: boolean): unknown {
  if (!isRecord(geometry)) return geometry;
  const pos = (p: unknown) => mapPosition(p, map);
  const line = (l: unknown) => mapList(l, pos);
  // A flip reverses a ring's turning: reversed back, an outer ring stays counter-clockwise.
  const ring = (r: unknown) => {
    const mapped = line(r);
    return mirrored && Array.isArray(mapped) ? [...(mapped as unknown[])].reverse() : mapped;
  };
  const polygon = (p: unknown) => mapList(p, ring);
  const { bbox: _stale, ...rest } = geometry;
  const c = geometry.coordinates;
  switch (geometry.type) {
    case 'Point':
      return { ...rest, coordinates: pos(c) };
    case 'MultiPoint':
    case 'LineString':
      return { ...rest, coordinates: line(c) };
    case 'MultiLineString':
      return { ...rest, coordinates: mapList(c, line) };
    case 'Polygon':
      return { ...rest, coordinates: polygon(c) };
    case 'MultiPolygon':
      return { ...rest, coordinates: mapList(c, polygon) };
    case 'GeometryCollection':
      return { ...rest, geometries: mapList(geometry.geometries, (g) => mapGeometry(g, map, mirrored)) };
    default:
      return geometry;
  }
}

/** The exact figure through the matrix, or undefined when the matrix turns or mirrors it. */
function mapShape(hint: ShapeHint, m: Affine): ShapeHint | undefined {
  const [[a, b], [c, d]] = m;
  if (b !== 0 || c !== 0 || a <= 0 || d <= 0) return undefined;
  if (hint.type === 'rectangle') {
    const [x, y] = applyAffine(m, [hint.x, hint.y]);
    return { type: 'rectangle', x, y, width: hint.width * a, height: hint.height * d };
  }
  const [cx, cy] = applyAffine(m, [hint.cx, hint.cy]);
  return { type: 'ellipse', cx, cy, rx: hint.rx * a, ry: hint.ry * d };
}

function mapFeature(feature: unknown, map: Map2, mirrored: boolean, matrix: Affine): unknown {
  if (!isRecord(feature)) return feature;
  const { bbox: _stale, ...rest } = feature;
  const mapped = { ...rest, geometry: mapGeometry(feature.geometry, map, mirrored) };
  if (!isRecord(feature.properties) || !('shape' in feature.properties)) return mapped;
  const { shape, ...properties } = feature.properties;
  const hint = shapeHintOf(shape);
  const moved = hint && mapShape(hint, matrix);
  return { ...mapped, properties: moved ? { ...properties, shape: moved } : properties };
}

/**
 * The content with its positions mapped through `matrix` (from the source image's pixels to the other
 * image's). The input is not changed.
 */
export function mapAnnotationContent(content: unknown, matrix: Affine): unknown {
  const map: Map2 = (p) => applyAffine(matrix, p);
  const mirrored = matrix[0][0] * matrix[1][1] - matrix[0][1] * matrix[1][0] < 0;
  if (!isRecord(content)) return content;
  if (content.type === 'Feature') return mapFeature(content, map, mirrored, matrix);
  if (content.type === 'FeatureCollection') {
    const { bbox: _stale, ...rest } = content;
    return { ...rest, features: mapList(content.features, (f) => mapFeature(f, map, mirrored, matrix)) };
  }
  if ('coordinates' in content || content.type === 'GeometryCollection')
    return mapGeometry(content, map, mirrored);
  return content;
}
