// What the overlay draws of each geometry: polygons closed, lines open, points as one position.
import { describe, expect, it } from 'vitest';
import { marksOf, regionContent } from '../../../src/app/viewer/annotations/regions';

describe('annotation marks', () => {
  it('draws polygons closed, lines open and points as single positions, in any container', () => {
    expect(
      marksOf(
        regionContent(
          [
            [0, 0],
            [4, 0],
            [4, 4],
          ],
          '',
        ),
      ),
    ).toEqual([
      {
        points: [
          [0, 0],
          [4, 0],
          [4, 4],
          [0, 0],
        ],
        closed: true,
      },
    ]);
    const collection = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: {
            type: 'MultiLineString',
            coordinates: [
              [
                [0, 0],
                [1, 1],
              ],
              [
                [2, 2],
                [3, 3],
              ],
            ],
          },
        },
        {
          type: 'Feature',
          geometry: {
            type: 'GeometryCollection',
            geometries: [
              {
                type: 'MultiPoint',
                coordinates: [
                  [5, 5],
                  [6, 6],
                ],
              },
              {
                type: 'LineString',
                coordinates: [
                  [7, 7],
                  [8, 8],
                ],
              },
            ],
          },
        },
      ],
    };
    expect(marksOf(collection)).toEqual([
      {
        points: [
          [0, 0],
          [1, 1],
        ],
        closed: false,
      },
      {
        points: [
          [2, 2],
          [3, 3],
        ],
        closed: false,
      },
      { points: [[5, 5]], closed: false },
      { points: [[6, 6]], closed: false },
      {
        points: [
          [7, 7],
          [8, 8],
        ],
        closed: false,
      },
    ]);
    expect(marksOf({ type: 'Point', coordinates: ['a', 1] })).toEqual([]);
    expect(marksOf({ text: 'a note' })).toEqual([]);
  });
});
