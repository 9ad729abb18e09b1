// An image's annotations as GeoJSON in QuPath's layout, both ways (File › Export/Import objects in
// QuPath 0.4+): a FeatureCollection whose Features carry `id`, a geometry in level-0 pixel coordinates
// (origin top left) and `properties` {objectType: 'annotation', name, classification {name, color:
// [r, g, b]}}. Our note travels as `properties.metadata.note` (QuPath keeps string metadata), and the
// exact rectangle or ellipse as `properties.shape` (QuPath ignores it and reads the polygon).
// Import validates everything first and says which feature is wrong; the server stores all or nothing.
import { z } from 'zod';
import { positionOf, shapeHintOf, type Position, type ShapeHint } from './annotation-shapes';
import { ANNOTATION_CONTENT_MAX, ANNOTATION_NAME_MAX } from './annotations';
import { errorText } from './errors';
import { ringCrossesItself } from './ring-crossing';

/** Our limits for one import: the file's bytes and its features (an image holds at most this many at once). */
export { GEOJSON_IMPORT_MAX_BYTES } from './constants';
export const GEOJSON_IMPORT_MAX_FEATURES = 10_000;
/** At most this many problems are listed in one answer; the rest are counted. */
export const GEOJSON_ERRORS_LISTED = 5;

export type Rgb = [number, number, number];

export interface Classification {
  name: string;
  color?: Rgb;
}

/** Geometry types GeoJSON defines and we read. */
export const GEOMETRY_TYPES = [
  'Polygon',
  'MultiPolygon',
  'LineString',
  'MultiLineString',
  'Point',
  'MultiPoint',
  'GeometryCollection',
] as const;

export interface Geometry {
  type: (typeof GEOMETRY_TYPES)[number];
  coordinates?: unknown;
  geometries?: Geometry[];
}

export interface QuPathFeature {
  type: 'Feature';
  id?: string;
  geometry: Geometry;
  properties: {
    objectType: 'annotation';
    name?: string;
    classification?: { name: string; color: Rgb };
    metadata?: { note: string };
    shape?: ShapeHint;
  };
}

export interface QuPathFeatureCollection {
  type: 'FeatureCollection';
  features: QuPathFeature[];
}

/** The colour we write for a class that came without one (QuPath wants one). */
export const DEFAULT_CLASS_COLOR: Rgb = [255, 196, 0];

export const GeoJsonText = {
  exportButton: 'Export GeoJSON',
  importButton: 'Import GeoJSON',
  imported: (n: number) => `Imported ${n} annotation${n === 1 ? '' : 's'}`,
  notExported: (n: number) =>
    `${n} note${n === 1 ? '' : 's'} without a region ${n === 1 ? 'is' : 'are'} not in the file`,
  notJson: 'The file is not valid JSON',
  tooLarge: errorText('GEOJSON_TOO_LARGE'),
  notGeoJson: 'The file is not GeoJSON: expected a FeatureCollection or a list of Features',
  noFeatures: 'The file holds no features to import',
  tooManyFeatures: (n: number) =>
    `The file holds ${n} features; at most ${GEOJSON_IMPORT_MAX_FEATURES} can be imported at once`,
  feature: (i: number, problem: string) => `Feature ${i}: ${problem}`,
  more: (n: number) => `and ${n} more problem${n === 1 ? '' : 's'}`,
  notFeature: 'is not a GeoJSON Feature',
  noGeometry: 'has no geometry',
  unknownGeometry: (type: unknown) =>
    `geometry type ${JSON.stringify(type ?? null)} is not supported (${GEOMETRY_TYPES.join(', ')})`,
  badPosition: 'coordinates must be [x, y] pairs of finite numbers',
  ringNotClosed: 'polygon ring is not closed (its last position must repeat the first)',
  ringTooShort: 'polygon ring needs at least 4 positions',
  ringCrosses: 'polygon ring crosses itself',
  lineTooShort: 'line needs at least 2 positions',
  noPoints: 'has no positions',
  nestedCollection: 'geometry collections cannot be nested',
  outside: (x: number, y: number, width: number, height: number) =>
    `position [${x}, ${y}] is outside the image (${width} × ${height} pixels)`,
  notAnnotation: (type: unknown) =>
    `objectType is ${JSON.stringify(type)}; only annotations are imported (export annotations only from QuPath)`,
  badClassification: 'classification needs a name and a color [r, g, b] of whole numbers 0–255',
  badName: `name must be text of at most ${ANNOTATION_NAME_MAX} characters`,
  badShape: 'properties.shape must be a rectangle {x, y, width, height} or an ellipse {cx, cy, rx, ry}',
  tooBig: `is larger than ${ANNOTATION_CONTENT_MAX} characters of JSON`,
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------------
// Reading classifications, names and notes (lenient about QuPath's older forms)

const channel = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255;

/** [r, g, b] from QuPath's array (alpha ignored) or its pre-0.4 packed `colorRGB` integer. */
function rgbOf(color: unknown, packed: unknown): Rgb | undefined | null {
  if (color !== undefined) {
    if (!Array.isArray(color) || (color.length !== 3 && color.length !== 4) || !color.every(channel))
      return null;
    return [color[0], color[1], color[2]];
  }
  if (packed !== undefined) {
    if (!Number.isInteger(packed)) return null;
    const v = (packed as number) >>> 0;
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }
  return undefined;
}

/**
 * A classification as QuPath writes it ({name, color}), derived classes ({names: [...]}) or a bare
 * name; undefined when there is none, null when it is malformed.
 */
export function classificationOf(v: unknown): Classification | undefined | null {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.trim() ? { name: v.trim() } : null;
  if (!isRecord(v)) return null;
  const name =
    typeof v.name === 'string'
      ? v.name.trim()
      : Array.isArray(v.names) && v.names.length > 0 && v.names.every((n) => typeof n === 'string')
        ? v.names.join(': ')
        : '';
  if (!name || name.length > ANNOTATION_NAME_MAX) return null;
  const color = rgbOf(v.color, v.colorRGB);
  if (color === null) return null;
  return color ? { name, color } : { name };
}

/** The classification an annotation's content holds (properties.classification), if well formed. */
export function classificationOfContent(content: unknown): Classification | undefined {
  if (!isRecord(content) || !isRecord(content.properties)) return undefined;
  return classificationOf(content.properties.classification) ?? undefined;
}

const noteOfProperties = (props: Record<string, unknown>): string =>
  typeof props.text === 'string' ? props.text : '';

// ---------------------------------------------------------------------------------------------------
// Export

export interface ExportableAnnotation {
  id: string;
  name: string;
  content: unknown;
}

function knownGeometry(g: unknown): g is Geometry {
  return isRecord(g) && (GEOMETRY_TYPES as readonly unknown[]).includes(g.type);
}

/** The features (with geometry) an annotation's content holds: a Feature, a FeatureCollection or a bare geometry. */
function featuresOfContent(
  content: unknown,
): Array<{ geometry: Geometry; properties: Record<string, unknown> }> {
  if (!isRecord(content)) return [];
  const one = (f: unknown) =>
    isRecord(f) && knownGeometry(f.geometry)
      ? [{ geometry: f.geometry, properties: isRecord(f.properties) ? f.properties : {} }]
      : [];
  if (content.type === 'Feature') return one(content);
  if (content.type === 'FeatureCollection' && Array.isArray(content.features))
    return content.features.flatMap(one);
  return knownGeometry(content) ? [{ geometry: content, properties: {} }] : [];
}

/**
 * An image's annotations as a QuPath FeatureCollection. Notes without a region have no geometry and are
 * left out (`skipped` counts them).
 */
export function annotationsToGeoJson(annotations: readonly ExportableAnnotation[]): {
  collection: QuPathFeatureCollection;
  skipped: number;
} {
  const features: QuPathFeature[] = [];
  let skipped = 0;
  for (const a of annotations) {
    const parts = featuresOfContent(a.content);
    if (parts.length === 0) skipped++;
    parts.forEach(({ geometry, properties }, i) => {
      const cls = classificationOf(properties.classification);
      const note = noteOfProperties(properties);
      const shape = shapeHintOf(properties.shape);
      const name = a.name || (typeof properties.name === 'string' ? properties.name : '');
      features.push({
        type: 'Feature',
        // QuPath keeps a feature's id when it is a UUID: an annotation of several parts gives it to the first.
        ...(i === 0 ? { id: a.id } : {}),
        geometry,
        properties: {
          objectType: 'annotation',
          ...(name ? { name } : {}),
          ...(cls ? { classification: { name: cls.name, color: cls.color ?? DEFAULT_CLASS_COLOR } } : {}),
          ...(note ? { metadata: { note } } : {}),
          ...(shape ? { shape } : {}),
        },
      });
    });
  }
  return { collection: { type: 'FeatureCollection', features }, skipped };
}

// ---------------------------------------------------------------------------------------------------
// Import

/** Level-0 size of the image, to refuse positions outside it; unknown sizes are not checked. */
export interface ImageBounds {
  width: number;
  height: number;
}

/** What one imported feature becomes: an annotation's name and its content (a Feature as the viewer draws it). */
export interface ImportedAnnotation {
  name: string;
  content: {
    type: 'Feature';
    geometry: Geometry;
    properties: { text: string; classification?: Classification; shape?: ShapeHint };
  };
}

export type GeoJsonImport = { ok: true; annotations: ImportedAnnotation[] } | { ok: false; errors: string[] };

class Problem extends Error {}

/** Positions as [x, y] (a third coordinate dropped), checked against the image. */
function positions(list: unknown, bounds: ImageBounds | undefined, min = 0): Position[] {
  if (!Array.isArray(list)) throw new Problem(GeoJsonText.badPosition);
  const out: Position[] = [];
  for (const p of list) {
    const pos = positionOf(p);
    if (!pos) throw new Problem(GeoJsonText.badPosition);
    if (bounds && (pos[0] < 0 || pos[1] < 0 || pos[0] > bounds.width || pos[1] > bounds.height))
      throw new Problem(GeoJsonText.outside(pos[0], pos[1], bounds.width, bounds.height));
    out.push(pos);
  }
  if (out.length < min) throw new Problem(min > 1 ? GeoJsonText.lineTooShort : GeoJsonText.noPoints);
  return out;
}

function polygon(rings: unknown, bounds: ImageBounds | undefined): Position[][] {
  if (!Array.isArray(rings) || rings.length === 0) throw new Problem(GeoJsonText.badPosition);
  return rings.map((r) => {
    const ring = positions(r, bounds);
    if (ring.length < 4) throw new Problem(GeoJsonText.ringTooShort);
    const [first, last] = [ring[0], ring[ring.length - 1]];
    if (first[0] !== last[0] || first[1] !== last[1]) throw new Problem(GeoJsonText.ringNotClosed);
    if (ringCrossesItself(ring)) throw new Problem(GeoJsonText.ringCrosses);
    return ring;
  });
}

/** The geometry rebuilt from what was checked (no foreign members), or a Problem. */
function checkedGeometry(g: unknown, bounds: ImageBounds | undefined, nested = false): Geometry {
  if (g === undefined || g === null) throw new Problem(GeoJsonText.noGeometry);
  if (!knownGeometry(g)) throw new Problem(GeoJsonText.unknownGeometry(isRecord(g) ? g.type : g));
  const c = g.coordinates;
  const many = <T>(list: unknown, one: (v: unknown) => T): T[] => {
    if (!Array.isArray(list) || list.length === 0) throw new Problem(GeoJsonText.noPoints);
    return list.map(one);
  };
  switch (g.type) {
    case 'Polygon':
      return { type: g.type, coordinates: polygon(c, bounds) };
    case 'MultiPolygon':
      return { type: g.type, coordinates: many(c, (p) => polygon(p, bounds)) };
    case 'LineString':
      return { type: g.type, coordinates: positions(c, bounds, 2) };
    case 'MultiLineString':
      return { type: g.type, coordinates: many(c, (l) => positions(l, bounds, 2)) };
    case 'Point':
      return { type: g.type, coordinates: positions([c], bounds, 1)[0] };
    case 'MultiPoint':
      return { type: g.type, coordinates: positions(c, bounds, 1) };
    case 'GeometryCollection':
      if (nested) throw new Problem(GeoJsonText.nestedCollection);
      return { type: g.type, geometries: many(g.geometries, (x) => checkedGeometry(x, bounds, true)) };
  }
}

function checkedFeature(f: unknown, bounds: ImageBounds | undefined): ImportedAnnotation {
  if (!isRecord(f) || f.type !== 'Feature') throw new Problem(GeoJsonText.notFeature);
  const props = f.properties === undefined || f.properties === null ? {} : f.properties;
  if (!isRecord(props)) throw new Problem(GeoJsonText.notFeature);
  // QuPath's own default for a feature without objectType is an annotation.
  const type = props.objectType ?? props.object_type ?? 'annotation';
  if (type !== 'annotation' && type !== 'PathAnnotationObject')
    throw new Problem(GeoJsonText.notAnnotation(type));
  const geometry = checkedGeometry(f.geometry, bounds);
  const name = props.name ?? '';
  if (typeof name !== 'string' || name.length > ANNOTATION_NAME_MAX) throw new Problem(GeoJsonText.badName);
  const classification = classificationOf(props.classification);
  if (classification === null) throw new Problem(GeoJsonText.badClassification);
  const shape = props.shape === undefined ? undefined : shapeHintOf(props.shape);
  if (props.shape !== undefined && !shape) throw new Problem(GeoJsonText.badShape);
  const metadata = isRecord(props.metadata) ? props.metadata : {};
  const note = typeof metadata.note === 'string' ? metadata.note : '';
  const content: ImportedAnnotation['content'] = {
    type: 'Feature',
    geometry,
    properties: { text: note, ...(classification ? { classification } : {}), ...(shape ? { shape } : {}) },
  };
  if (JSON.stringify(content).length > ANNOTATION_CONTENT_MAX) throw new Problem(GeoJsonText.tooBig);
  return { name: name.trim(), content };
}

/**
 * Reads a GeoJSON import (already parsed JSON): every feature is checked, and either all become
 * annotations or the answer lists the problems, each naming its feature (counted from 1).
 */
export function parseGeoJsonImport(data: unknown, bounds?: ImageBounds): GeoJsonImport {
  const features = Array.isArray(data)
    ? data
    : isRecord(data) && data.type === 'FeatureCollection' && Array.isArray(data.features)
      ? data.features
      : isRecord(data) && data.type === 'Feature'
        ? [data]
        : undefined;
  if (!features) return { ok: false, errors: [GeoJsonText.notGeoJson] };
  if (features.length === 0) return { ok: false, errors: [GeoJsonText.noFeatures] };
  if (features.length > GEOJSON_IMPORT_MAX_FEATURES)
    return { ok: false, errors: [GeoJsonText.tooManyFeatures(features.length)] };
  const annotations: ImportedAnnotation[] = [];
  const errors: string[] = [];
  features.forEach((f, i) => {
    try {
      annotations.push(checkedFeature(f, bounds));
    } catch (e) {
      if (!(e instanceof Problem)) throw e;
      errors.push(GeoJsonText.feature(i + 1, e.message));
    }
  });
  return errors.length ? { ok: false, errors } : { ok: true, annotations };
}

/** What POST /v2/images/:id/annotations/geojson answers: the annotations it created, in the file's order. */
export const GeoJsonImportResult = z.object({
  result: z.object({ count: z.number().int(), annotationIds: z.array(z.string()) }),
});
export type GeoJsonImportResult = z.infer<typeof GeoJsonImportResult>;

/** Where an image's annotations are exported and imported. */
export const geoJsonPath = (imageId: string) => `/images/${encodeURIComponent(imageId)}/annotations/geojson`;

/** One message for a refused import: the first problems, then how many more. */
export function importErrorMessage(errors: readonly string[]): string {
  const listed = errors.slice(0, GEOJSON_ERRORS_LISTED);
  const rest = errors.length - listed.length;
  return listed.join('; ') + (rest > 0 ? `; ${GeoJsonText.more(rest)}` : '');
}

/** Reads an import from the file's text: not JSON is a problem of its own. */
export function parseGeoJsonText(text: string, bounds?: ImageBounds): GeoJsonImport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, errors: [GeoJsonText.notJson] };
  }
  return parseGeoJsonImport(data, bounds);
}
