// The select tool's operations on stored shapes: reading the editable geometry back from content,
// hit testing, moving, dragging handles (rectangle corners, ellipse radii, polygon and line vertices),
// and that an edit keeps the annotation's note and class.
import { describe, expect, it } from 'vitest';
import { measureContent } from '../../../src/api/annotation-measurements';
import { withClassification } from '../../../src/api/annotation-classes';
import {
  contentOf,
  contentWithGeometry,
  editableGeometryOf,
  ellipseFrom,
  handleAt,
  handlesOf,
  hits,
  lineOf,
  moveHandle,
  pointOf,
  polygonOf,
  rectangleFrom,
  translate,
} from '../../../src/app/viewer/annotations/tools/geometry';
import { regionContent } from '../../../src/app/viewer/annotations/regions';

const square = polygonOf([
  [0, 0],
  [100, 0],
  [100, 100],
  [0, 100],
]);

describe('editing shapes', () => {
  it('reads back what the tools store, and the freehand regions stored before them', () => {
    for (const g of [
      square,
      rectangleFrom([0, 0], [10, 20]),
      ellipseFrom([0, 0], [40, 20]),
      lineOf([
        [0, 0],
        [5, 5],
      ]),
      pointOf([3, 4]),
    ])
      expect(editableGeometryOf(JSON.parse(JSON.stringify(contentOf(g, 'n'))))).toEqual(g);
    expect(
      editableGeometryOf(
        regionContent(
          [
            [0, 0],
            [10, 0],
            [10, 10],
          ],
          'old',
        ),
      ),
    ).toEqual({
      type: 'Polygon',
      ring: [
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 0],
      ],
    });
    // Notes, holes and multi-part geometries are not reshaped.
    expect(editableGeometryOf({ text: 'a note' })).toBeUndefined();
    expect(
      editableGeometryOf({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [9, 0],
            [9, 9],
            [0, 0],
          ],
          [
            [1, 1],
            [2, 1],
            [2, 2],
            [1, 1],
          ],
        ],
      }),
    ).toBeUndefined();
    expect(editableGeometryOf({ type: 'MultiPoint', coordinates: [[0, 0]] })).toBeUndefined();
  });

  it('hit testing: inside a polygon, near a line or a point, within the tolerance', () => {
    expect(hits(square, [50, 50], 2)).toBe(true);
    expect(hits(square, [103, 50], 2)).toBe(false);
    expect(hits(square, [101, 50], 2)).toBe(true);
    const line = lineOf([
      [0, 0],
      [100, 0],
    ]);
    expect(hits(line, [50, 3], 4)).toBe(true);
    expect(hits(line, [50, 5], 4)).toBe(false);
    expect(hits(pointOf([10, 10]), [13, 14], 5)).toBe(true);
    expect(hits(pointOf([10, 10]), [16, 14], 5)).toBe(false);
  });

  it('move: every vertex and the exact figure shift by whole pixels; the area is unchanged', () => {
    expect(translate(square, 10.4, -5.6)).toEqual(
      polygonOf([
        [10, -6],
        [110, -6],
        [110, 94],
        [10, 94],
      ]),
    );
    const rect = translate(rectangleFrom([0, 0], [10, 20]), 5, 5);
    expect(rect).toEqual(rectangleFrom([5, 5], [15, 25]));
    const ellipse = translate(ellipseFrom([0, 0], [40, 20]), 100, 0);
    expect(ellipse).toMatchObject({ shape: { cx: 120, cy: 10, rx: 20, ry: 10 } });
    expect(measureContent(contentOf(ellipse, ''))).toEqual(
      measureContent(contentOf(ellipseFrom([0, 0], [40, 20]), '')),
    );
    expect(translate(pointOf([1, 2]), 3, 4)).toEqual(pointOf([4, 6]));
    expect(
      translate(
        lineOf([
          [0, 0],
          [1, 1],
        ]),
        1,
        1,
      ),
    ).toEqual(
      lineOf([
        [1, 1],
        [2, 2],
      ]),
    );
  });

  it('vertex edit: a polygon vertex (the first also closes the ring), a line vertex, a point', () => {
    expect(handlesOf(square)).toHaveLength(4);
    const moved = moveHandle(square, 0, [-10, -10]);
    expect(moved).toEqual(
      polygonOf([
        [-10, -10],
        [100, 0],
        [100, 100],
        [0, 100],
      ]),
    );
    expect((moved as unknown as { ring: number[][] }).ring.at(-1)).toEqual([-10, -10]);
    expect(
      moveHandle(
        lineOf([
          [0, 0],
          [10, 0],
          [20, 0],
        ]),
        1,
        [10, 30],
      ),
    ).toEqual(
      lineOf([
        [0, 0],
        [10, 30],
        [20, 0],
      ]),
    );
    expect(moveHandle(pointOf([0, 0]), 0, [5, 5])).toEqual(pointOf([5, 5]));
    // Out of range: unchanged.
    expect(moveHandle(square, 9, [1, 1])).toBe(square);
  });

  it('a rectangle is resized by a corner against the opposite one; an ellipse by its axis ends', () => {
    const rect = rectangleFrom([0, 0], [100, 50]);
    expect(handlesOf(rect)).toEqual([
      [0, 0],
      [100, 0],
      [100, 50],
      [0, 50],
    ]);
    // Corner 2 (bottom right) dragged out: the top left stays.
    expect(moveHandle(rect, 2, [200, 80])).toEqual(rectangleFrom([0, 0], [200, 80]));
    // Dragged past the opposite corner: still a proper rectangle.
    expect(moveHandle(rect, 2, [-50, -50])).toMatchObject({
      shape: { x: -50, y: -50, width: 50, height: 50 },
    });
    const ellipse = ellipseFrom([0, 0], [100, 50]);
    expect(handlesOf(ellipse)).toEqual([
      [100, 25],
      [50, 50],
      [0, 25],
      [50, 0],
    ]);
    expect(moveHandle(ellipse, 0, [150, 40])).toMatchObject({ shape: { cx: 50, cy: 25, rx: 100, ry: 25 } });
    expect(moveHandle(ellipse, 3, [50, -25])).toMatchObject({ shape: { rx: 50, ry: 50 } });
  });

  it('handleAt finds the nearest handle within the tolerance', () => {
    expect(handleAt(square, [98, 3], 5)).toBe(1);
    expect(handleAt(square, [50, 50], 5)).toBe(-1);
  });

  it('an edited shape keeps its note and class; a rectangle turned into a polygon loses its figure', () => {
    const stored = withClassification(contentOf(rectangleFrom([0, 0], [10, 10]), 'margin'), {
      name: 'Tumor',
      color: '#ff0000',
    });
    const edited = contentWithGeometry(translate(editableGeometryOf(stored)!, 5, 5), stored);
    expect(edited).toMatchObject({
      properties: {
        text: 'margin',
        classification: { name: 'Tumor' },
        shape: { type: 'rectangle', x: 5, y: 5 },
      },
    });
    const free = contentWithGeometry(square, stored) as { properties: Record<string, unknown> };
    expect(free.properties.shape).toBeUndefined();
    expect(free.properties.text).toBe('margin');
  });
});
