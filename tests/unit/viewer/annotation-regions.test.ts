// What the viewer reads from an annotation's free JSON content, and the region it stores.
import { describe, expect, it } from 'vitest';
import {
  MAX_OUTLINE_POINTS,
  noteOf,
  outlineArea,
  outlinesOf,
  regionContent,
  simplifyOutline,
  withNote,
  type Point,
} from '../../../src/app/viewer/annotations/regions';

const square: Point[] = [
  [10, 10],
  [110, 10],
  [110, 60],
  [10, 60],
];

describe('annotation regions', () => {
  it('stores a drawn outline as a closed GeoJSON polygon with its note, and reads it back', () => {
    const content = regionContent(square, 'Tumour margin');
    expect(content.geometry.coordinates[0]).toHaveLength(5);
    expect(content.geometry.coordinates[0][4]).toEqual([10, 10]);
    expect(outlinesOf(content)).toEqual([[...square, [10, 10]]]);
    expect(noteOf(content)).toBe('Tumour margin');
    // Through JSON, as the server stores it.
    expect(outlinesOf(JSON.parse(JSON.stringify(content)))).toHaveLength(1);
  });

  it('editing the note keeps the outline; a plain note stays a note', () => {
    const edited = withNote(regionContent(square, 'old'), 'new');
    expect(noteOf(edited)).toBe('new');
    expect(outlinesOf(edited)).toHaveLength(1);
    expect(withNote({ text: 'a' }, 'b')).toEqual({ text: 'b' });
    expect(outlinesOf({ text: 'just a note' })).toEqual([]);
  });

  it('draws what other tools wrote: multipolygons, collections, lines; ignores nonsense', () => {
    const multi = {
      type: 'Feature',
      geometry: { type: 'MultiPolygon', coordinates: [[square], [square.map(([x, y]) => [x + 200, y])]] },
    };
    expect(outlinesOf(multi)).toHaveLength(2);
    const collection = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [5, 5],
            ],
          },
        },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [square] } },
      ],
    };
    expect(outlinesOf(collection)).toHaveLength(2);
    expect(outlinesOf({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [[['a', 1]]] } })).toEqual(
      [],
    );
    expect(outlinesOf({ type: 'Feature', n: 3 })).toEqual([]);
    expect(outlinesOf(null)).toEqual([]);
    expect(noteOf({ type: 'Feature', n: 3 })).toBe('{"type":"Feature","n":3}');
    expect(noteOf(multi)).toBe('');
  });

  it('simplifies a long freehand stroke to at most the stored number of integer points', () => {
    const circle: Point[] = Array.from({ length: 5000 }, (_, i) => {
      const a = (i / 5000) * 2 * Math.PI;
      return [5000 + 3000 * Math.cos(a) + 0.3, 5000 + 3000 * Math.sin(a)];
    });
    const out = simplifyOutline(circle);
    expect(out.length).toBeLessThanOrEqual(MAX_OUTLINE_POINTS);
    expect(out.length).toBeGreaterThan(20);
    expect(out.every(([x, y]) => Number.isInteger(x) && Number.isInteger(y))).toBe(true);
    // The shape survives: the area stays within 5% of the circle’s.
    expect(outlineArea(out) / (Math.PI * 3000 ** 2)).toBeCloseTo(1, 1);
  });

  it('a straight stroke encloses nothing', () => {
    expect(
      outlineArea([
        [0, 0],
        [50, 50],
        [100, 100],
      ]),
    ).toBe(0);
    expect(outlineArea(square)).toBe(5000);
  });
});
