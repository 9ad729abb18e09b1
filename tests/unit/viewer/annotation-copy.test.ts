// An annotation copied to the other aligned image: its positions go through the matrix, the rest stays.
import { describe, expect, it } from 'vitest';
import type { Affine } from '../../../src/app/viewer/aligned/aligned-transform';
import { invertAffine } from '../../../src/app/viewer/aligned/aligned-transform';
import { mapAnnotationContent } from '../../../src/app/viewer/aligned/annotation-copy';

const SHIFT: Affine = [
  [1, 0, 100],
  [0, 1, -10],
];
/** 90° clockwise about the origin, then 1000 px to the right. */
const TURN: Affine = [
  [0, -1, 1000],
  [1, 0, 0],
];
/** Flipped left to right within a 500-pixel-wide image. */
const MIRROR: Affine = [
  [-1, 0, 500],
  [0, 1, 0],
];

const region = (ring: number[][]) => ({
  type: 'Feature',
  geometry: { type: 'Polygon', coordinates: [ring] },
  properties: { text: 'Tumour', classification: { name: 'Tumor' } },
});

describe('copying an annotation through the alignment', () => {
  it('moves a region and keeps its note and class', () => {
    const ring = [
      [0, 0],
      [10, 0],
      [10, 20],
      [0, 0],
    ];
    expect(mapAnnotationContent(region(ring), SHIFT)).toEqual(
      region([
        [100, -10],
        [110, -10],
        [110, 10],
        [100, -10],
      ]),
    );
  });

  it("carries a rectangle's and an ellipse's exact figure when only moved, and drops it when turned", () => {
    const rectangle = {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [10, 0],
            [10, 20],
            [0, 20],
            [0, 0],
          ],
        ],
      },
      properties: { text: 'Box', shape: { type: 'rectangle', x: 0, y: 0, width: 10, height: 20 } },
    };
    const ellipse = {
      ...rectangle,
      properties: { text: 'Oval', shape: { type: 'ellipse', cx: 5, cy: 10, rx: 5, ry: 10 } },
    };
    const props = (content: unknown) => (content as { properties: Record<string, unknown> }).properties;
    expect(props(mapAnnotationContent(rectangle, SHIFT))).toEqual({
      text: 'Box',
      shape: { type: 'rectangle', x: 100, y: -10, width: 10, height: 20 },
    });
    expect(props(mapAnnotationContent(ellipse, SHIFT))).toEqual({
      text: 'Oval',
      shape: { type: 'ellipse', cx: 105, cy: 0, rx: 5, ry: 10 },
    });
    expect(props(mapAnnotationContent(rectangle, TURN))).toEqual({ text: 'Box' });
    expect(props(mapAnnotationContent(ellipse, MIRROR))).toEqual({ text: 'Oval' });
  });

  it('turns a region', () => {
    const out = mapAnnotationContent(
      region([
        [0, 0],
        [10, 0],
        [0, 0],
      ]),
      TURN,
    ) as { geometry: { coordinates: number[][][] } };
    expect(out.geometry.coordinates[0]).toEqual([
      [1000, 0],
      [1000, 10],
      [1000, 0],
    ]);
  });

  it('reverses rings when mirrored, so their winding is kept', () => {
    const out = mapAnnotationContent(
      region([
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 0],
      ]),
      MIRROR,
    ) as { geometry: { coordinates: number[][][] } };
    expect(out.geometry.coordinates[0]).toEqual([
      [500, 0],
      [490, 10],
      [490, 0],
      [500, 0],
    ]);
  });

  it('maps points, lines, multipolygons, collections and drops stale bounding boxes', () => {
    const content = {
      type: 'FeatureCollection',
      bbox: [0, 0, 1, 1],
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2, 7] }, properties: null },
        {
          type: 'Feature',
          geometry: {
            type: 'LineString',
            coordinates: [
              [1, 2],
              [3, 4],
            ],
          },
          properties: {},
        },
        {
          type: 'Feature',
          bbox: [1, 1, 2, 2],
          geometry: {
            type: 'MultiPolygon',
            coordinates: [
              [
                [
                  [0, 0],
                  [1, 0],
                  [0, 0],
                ],
              ],
            ],
          },
          properties: {},
        },
        {
          type: 'Feature',
          geometry: {
            type: 'GeometryCollection',
            geometries: [{ type: 'MultiPoint', coordinates: [[5, 5]] }],
          },
          properties: {},
        },
      ],
    };
    expect(mapAnnotationContent(content, SHIFT)).toEqual({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [101, -8, 7] }, properties: null },
        {
          type: 'Feature',
          geometry: {
            type: 'LineString',
            coordinates: [
              [101, -8],
              [103, -6],
            ],
          },
          properties: {},
        },
        {
          type: 'Feature',
          geometry: {
            type: 'MultiPolygon',
            coordinates: [
              [
                [
                  [100, -10],
                  [101, -10],
                  [100, -10],
                ],
              ],
            ],
          },
          properties: {},
        },
        {
          type: 'Feature',
          geometry: {
            type: 'GeometryCollection',
            geometries: [{ type: 'MultiPoint', coordinates: [[105, -5]] }],
          },
          properties: {},
        },
      ],
    });
  });

  it('keeps a note without geometry, and does not change its input', () => {
    const note = { text: 'Check the margin' };
    expect(mapAnnotationContent(note, TURN)).toEqual(note);
    const r = region([
      [1, 1],
      [2, 2],
      [1, 1],
    ]);
    const before = JSON.stringify(r);
    mapAnnotationContent(r, TURN);
    expect(JSON.stringify(r)).toBe(before);
  });

  it('comes back where it was through the inverse', () => {
    const m: Affine = [
      [Math.cos(0.6) * -1.2, -Math.sin(0.6) * 1.2, 330],
      [Math.sin(0.6) * -1.2, Math.cos(0.6) * 1.2, -42],
    ];
    const r = region([
      [10, 10],
      [300, 40],
      [120, 250],
      [10, 10],
    ]);
    const back = mapAnnotationContent(mapAnnotationContent(r, m), invertAffine(m)) as {
      geometry: { coordinates: number[][][] };
    };
    back.geometry.coordinates[0].forEach((p, i) =>
      p.forEach((v, j) => expect(v).toBeCloseTo(r.geometry.coordinates[0][i][j], 6)),
    );
  });
});
