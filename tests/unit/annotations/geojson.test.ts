// GeoJSON in QuPath's layout: export → import gives the same shapes, classes, names and notes; every
// validation problem is named with its feature; self-crossing rings are found.
import { describe, expect, it } from 'vitest';
import {
  GEOJSON_IMPORT_MAX_FEATURES,
  GeoJsonText,
  annotationsToGeoJson,
  classificationOf,
  importErrorMessage,
  parseGeoJsonImport,
  parseGeoJsonText,
} from '../../../src/api/annotation-geojson';
import { ringOfHint, type Position } from '../../../src/api/annotation-shapes';
import { ringCrossesItself } from '../../../src/api/ring-crossing';

const square: Position[] = [
  [10, 10],
  [110, 10],
  [110, 60],
  [10, 60],
  [10, 10],
];
const tumour = { name: 'Tumor', color: [200, 0, 0] as [number, number, number] };
const ellipse = { type: 'ellipse', cx: 300, cy: 200, rx: 50, ry: 20 } as const;

/** Annotations as the API returns them: a drawn region, a classified ellipse, a ruler, points, a note. */
const stored = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Margin',
    content: {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [square] },
      properties: { text: 'check this', classification: tumour },
    },
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    name: '',
    content: {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [ringOfHint(ellipse)] },
      properties: { text: '', classification: { name: 'Stroma', color: [0, 150, 0] }, shape: ellipse },
    },
  },
  {
    id: '33333333-3333-4333-8333-333333333333',
    name: 'Ruler',
    content: {
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [30, 40],
        ],
      },
      properties: { text: '' },
    },
  },
  {
    id: '44444444-4444-4444-8444-444444444444',
    name: 'Mitoses',
    content: {
      type: 'MultiPoint',
      coordinates: [
        [5, 5],
        [6, 7],
      ],
    },
  },
  { id: '55555555-5555-4555-8555-555555555555', name: 'Just a note', content: { text: 'no region' } },
];

const collection = (...features: unknown[]) => ({ type: 'FeatureCollection', features });
const polygonFeature = (ring: unknown, properties: object = {}) => ({
  type: 'Feature',
  geometry: { type: 'Polygon', coordinates: [ring] },
  properties: { objectType: 'annotation', ...properties },
});
const firstError = (data: unknown, bounds?: { width: number; height: number }) => {
  const r = parseGeoJsonImport(data, bounds);
  if (r.ok) throw new Error('expected a refusal');
  return r.errors[0];
};

describe('GeoJSON in QuPath layout', () => {
  it('exports a FeatureCollection with objectType, classification {name, color [r,g,b]}, name and id', () => {
    const { collection: fc, skipped } = annotationsToGeoJson(stored);
    expect(skipped).toBe(1);
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features).toHaveLength(4);
    expect(fc.features[0]).toEqual({
      type: 'Feature',
      id: stored[0].id,
      geometry: { type: 'Polygon', coordinates: [square] },
      properties: {
        objectType: 'annotation',
        name: 'Margin',
        classification: { name: 'Tumor', color: [200, 0, 0] },
        metadata: { note: 'check this' },
      },
    });
    expect(fc.features.every((f) => f.properties.objectType === 'annotation')).toBe(true);
    expect(fc.features[1].properties.shape).toEqual(ellipse);
    expect(fc.features[3].geometry.type).toBe('MultiPoint');
  });

  it('round trip: export → import gives the same shapes, classes, names and notes', () => {
    const { collection: fc } = annotationsToGeoJson(stored);
    const back = parseGeoJsonImport(JSON.parse(JSON.stringify(fc)), { width: 1000, height: 1000 });
    if (!back.ok) throw new Error(back.errors.join('; '));
    expect(back.annotations.map((a) => a.name)).toEqual(['Margin', '', 'Ruler', 'Mitoses']);
    expect(back.annotations.map((a) => a.content.geometry)).toEqual(fc.features.map((f) => f.geometry));
    expect(back.annotations.map((a) => a.content.properties.classification)).toEqual([
      tumour,
      { name: 'Stroma', color: [0, 150, 0] },
      undefined,
      undefined,
    ]);
    expect(back.annotations[0].content.properties.text).toBe('check this');
    expect(back.annotations[1].content.properties.shape).toEqual(ellipse);
    // Exported again, the file is the same but for the ids the new annotations get.
    const again = annotationsToGeoJson(
      back.annotations.map((a, i) => ({ id: stored[i].id, name: a.name, content: a.content })),
    );
    expect(again.collection).toEqual(fc);
  });

  it("reads QuPath's other forms: a list of features, derived classes, colorRGB, no objectType, 3D positions", () => {
    const r = parseGeoJsonImport([
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [1, 2, 0] },
        properties: { classification: { names: ['Tumor', 'Positive'], color: [1, 2, 3, 255] } },
      },
      {
        type: 'Feature',
        id: 'PathAnnotationObject',
        geometry: { type: 'Point', coordinates: [3, 4] },
        properties: { classification: { name: 'Old', colorRGB: -65536 } },
      },
    ]);
    if (!r.ok) throw new Error(r.errors.join('; '));
    expect(r.annotations[0].content.geometry.coordinates).toEqual([1, 2]);
    expect(r.annotations[0].content.properties.classification).toEqual({
      name: 'Tumor: Positive',
      color: [1, 2, 3],
    });
    expect(r.annotations[1].content.properties.classification).toEqual({ name: 'Old', color: [255, 0, 0] });
    expect(classificationOf('Stroma')).toEqual({ name: 'Stroma' });
  });

  it('names each problem with its feature, counted from 1', () => {
    const ok = polygonFeature(square);
    const open = square.slice(0, 4);
    expect(firstError(collection(ok, ok, polygonFeature(open)))).toBe(
      'Feature 3: polygon ring is not closed (its last position must repeat the first)',
    );
    expect(firstError(collection(polygonFeature(square.slice(0, 3))))).toBe(
      GeoJsonText.feature(1, GeoJsonText.ringTooShort),
    );
    const bowTie = [
      [0, 0],
      [10, 10],
      [10, 0],
      [0, 10],
      [0, 0],
    ];
    expect(firstError(collection(ok, polygonFeature(bowTie)))).toBe(
      GeoJsonText.feature(2, GeoJsonText.ringCrosses),
    );
    expect(
      firstError(collection({ type: 'Feature', geometry: { type: 'Circle', coordinates: [1, 2] } })),
    ).toBe(GeoJsonText.feature(1, GeoJsonText.unknownGeometry('Circle')));
    expect(firstError(collection({ type: 'Feature', properties: {} }))).toBe(
      GeoJsonText.feature(1, GeoJsonText.noGeometry),
    );
    expect(firstError(collection({ type: 'Polygon', coordinates: [square] }))).toBe(
      GeoJsonText.feature(1, GeoJsonText.notFeature),
    );
    expect(
      firstError(
        collection(
          polygonFeature([
            [0, 0],
            [1, 'a'],
            [2, 2],
            [0, 0],
          ]),
        ),
      ),
    ).toBe(GeoJsonText.feature(1, GeoJsonText.badPosition));
    expect(
      firstError(collection({ type: 'Feature', geometry: { type: 'LineString', coordinates: [[1, 1]] } })),
    ).toBe(GeoJsonText.feature(1, GeoJsonText.lineTooShort));
    expect(firstError(collection(polygonFeature(square)), { width: 100, height: 100 })).toBe(
      GeoJsonText.feature(1, GeoJsonText.outside(110, 10, 100, 100)),
    );
    expect(firstError(collection({ ...ok, properties: { objectType: 'detection' } }))).toBe(
      GeoJsonText.feature(1, GeoJsonText.notAnnotation('detection')),
    );
    expect(
      firstError(collection(polygonFeature(square, { classification: { name: 'T', color: [300, 0, 0] } }))),
    ).toBe(GeoJsonText.feature(1, GeoJsonText.badClassification));
    expect(firstError(collection(polygonFeature(square, { classification: { color: [3, 0, 0] } })))).toBe(
      GeoJsonText.feature(1, GeoJsonText.badClassification),
    );
    expect(firstError(collection(polygonFeature(square, { name: 'x'.repeat(201) })))).toBe(
      GeoJsonText.feature(1, GeoJsonText.badName),
    );
    expect(firstError(collection(polygonFeature(square, { shape: { type: 'ellipse', rx: -1 } })))).toBe(
      GeoJsonText.feature(1, GeoJsonText.badShape),
    );
    const nested = {
      type: 'GeometryCollection',
      geometries: [{ type: 'GeometryCollection', geometries: [] }],
    };
    expect(firstError(collection({ type: 'Feature', geometry: nested }))).toBe(
      GeoJsonText.feature(1, GeoJsonText.nestedCollection),
    );
    const huge = Array.from({ length: 150_000 }, (_, i) => [i % 1000, Math.floor(i / 1000)]);
    expect(
      firstError(collection({ type: 'Feature', geometry: { type: 'MultiPoint', coordinates: huge } })),
    ).toBe(GeoJsonText.feature(1, GeoJsonText.tooBig));
  });

  it('refuses what is not a feature collection, empty or too many features, and text that is not JSON', () => {
    expect(parseGeoJsonText('{"type": "FeatureCollection", ')).toEqual({
      ok: false,
      errors: [GeoJsonText.notJson],
    });
    expect(firstError({ type: 'Polygon', coordinates: [square] })).toBe(GeoJsonText.notGeoJson);
    expect(firstError(collection())).toBe(GeoJsonText.noFeatures);
    const many = Array.from({ length: GEOJSON_IMPORT_MAX_FEATURES + 1 }, () => polygonFeature(square));
    expect(firstError(collection(...many))).toBe(
      GeoJsonText.tooManyFeatures(GEOJSON_IMPORT_MAX_FEATURES + 1),
    );
    expect(parseGeoJsonImport(collection(...many.slice(1))).ok).toBe(true);
  });

  it('lists the first problems in one message and counts the rest', () => {
    const open = polygonFeature(square.slice(0, 4));
    const r = parseGeoJsonImport(collection(...Array.from({ length: 8 }, () => open)));
    if (r.ok) throw new Error('expected a refusal');
    const message = importErrorMessage(r.errors);
    expect(message.startsWith('Feature 1: polygon ring is not closed')).toBe(true);
    expect(message).toContain('Feature 5: ');
    expect(message).not.toContain('Feature 6: ');
    expect(message.endsWith('and 3 more problems')).toBe(true);
  });

  it('finds rings that cross or touch themselves, not ordinary outlines', () => {
    expect(ringCrossesItself(square)).toBe(false);
    expect(ringCrossesItself(ringOfHint(ellipse))).toBe(false);
    // A ring that touches itself at a vertex (figure eight through [5, 5]).
    const eight: Position[] = [
      [0, 0],
      [5, 5],
      [10, 0],
      [10, 10],
      [5, 5],
      [0, 10],
      [0, 0],
    ];
    expect(ringCrossesItself(eight)).toBe(true);
    // Repeated positions are not crossings.
    expect(ringCrossesItself([square[0], ...square])).toBe(false);
    // A star of 5,000 points is checked quickly.
    const star = Array.from({ length: 5000 }, (_, i) => {
      const t = (2 * Math.PI * i) / 5000;
      const r = i % 2 ? 900 : 1000;
      return [r * Math.cos(t), r * Math.sin(t)] as Position;
    });
    const started = performance.now();
    expect(ringCrossesItself([...star, star[0]])).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
