// Each drawing tool's pointer state machine, driven as a mouse or a finger would, and the geometry and
// stored content it gives (level-0 pixels); the live measurement of each shape at a known pixel size.
import { describe, expect, it } from 'vitest';
import { measureContent, measurementText } from '../../../src/api/annotation-measurements';
import { figuresOf } from '../../../src/api/annotation-shapes';
import { annotationsToGeoJson, parseGeoJsonImport } from '../../../src/api/annotation-geojson';
import { contentOf, type ToolGeometry } from '../../../src/app/viewer/annotations/tools/geometry';
import {
  finish,
  interrupt,
  pointerDown,
  pointerMove,
  pointerUp,
  previewOf,
  startDrawing,
  type DrawState,
  type DrawTool,
  type Step,
} from '../../../src/app/viewer/annotations/tools/machine';
import { marksOf } from '../../../src/app/viewer/annotations/regions';

type P = [number, number];
/** One screen pixel is 2 image pixels (zoomed out to 50%). */
const scale = { pixel: 2 };
const quarter = { x: 0.25, y: 0.25 };

/** A press at `from`, moves through `path`, a release at its end. */
function drag(s: DrawState, from: P, ...path: P[]): Step {
  let state = pointerDown(s, from).state;
  for (const p of path) state = pointerMove(state, p, scale).state;
  return pointerUp(state, path.at(-1) ?? from, scale);
}
const tap = (s: DrawState, p: P) => drag(s, p);

function clicks(tool: DrawTool, points: P[]): Step {
  let step: Step = { state: startDrawing(tool) };
  for (const p of points) {
    step = tap(step.state, p);
    if (step.done) return step;
  }
  return step;
}

const measured = (g: ToolGeometry | undefined, pixelSize = quarter) =>
  measurementText(measureContent(contentOf(g!, ''), pixelSize));

describe('drawing tools', () => {
  it('rectangle: a drag between two corners, in any direction, stored as a polygon with its exact figure', () => {
    const { done, state } = drag(startDrawing('rectangle'), [300, 200], [250, 260], [100, 400]);
    expect(state.points).toEqual([]);
    expect(done).toMatchObject({
      type: 'Polygon',
      shape: { type: 'rectangle', x: 100, y: 200, width: 200, height: 200 },
    });
    const content = contentOf(done!, 'Tumour');
    expect(content).toMatchObject({
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [100, 200],
            [300, 200],
            [300, 400],
            [100, 400],
            [100, 200],
          ],
        ],
      },
      properties: { text: 'Tumour', shape: { type: 'rectangle' } },
    });
    // 200 × 200 px at 0.25 µm: 50 × 50 µm.
    expect(measured(done)).toBe('Area 2,500 µm² · Perimeter 200 µm');
  });

  it('rectangle and ellipse: a tap or a thin drag (under 4 screen pixels) makes nothing', () => {
    expect(tap(startDrawing('rectangle'), [10, 10]).done).toBeUndefined();
    expect(drag(startDrawing('rectangle'), [10, 10], [400, 16]).done).toBeUndefined();
    expect(drag(startDrawing('ellipse'), [10, 10], [16, 400]).done).toBeUndefined();
  });

  it('ellipse: inscribed in the dragged box, a 64-vertex closed polygon plus its exact figure', () => {
    const { done } = drag(startDrawing('ellipse'), [0, 0], [4000, 2000]);
    expect(done).toMatchObject({
      type: 'Polygon',
      shape: { type: 'ellipse', cx: 2000, cy: 1000, rx: 2000, ry: 1000 },
    });
    const ring = (done as unknown as { ring: P[] }).ring;
    expect(ring).toHaveLength(65);
    expect(ring[0]).toEqual(ring[64]);
    // Measured from the figure: π·500·250 µm² = 392,699 µm²; mm² above 1,000,000 µm².
    expect(measured(done)).toMatch(/^Area 392,699 µm² · Perimeter 2,422 µm$/);
    expect(measured(drag(startDrawing('ellipse'), [0, 0], [8000, 8000]).done)).toMatch(/^Area 3\.14 mm²/);
    // Without a pixel size: pixels.
    expect(measureContent(contentOf(done!, ''))).toMatchObject({ calibrated: false });
    expect(measurementText(measureContent(contentOf(done!, '')))).toMatch(/^Area 6,283,185 px²/);
  });

  it('polygon: taps place vertices, tapping the first vertex closes it; the preview follows the pointer', () => {
    let step = clicks('polygon', [
      [0, 0],
      [1000, 0],
      [1000, 1000],
    ]);
    expect(step.done).toBeUndefined();
    const moving = pointerMove(step.state, [0, 1000], scale).state;
    expect(previewOf(moving)).toEqual({
      type: 'Polygon',
      ring: [
        [0, 0],
        [1000, 0],
        [1000, 1000],
        [0, 1000],
        [0, 0],
      ],
    });
    // Closing: within 10 screen pixels (20 image pixels) of the first vertex.
    step = tap(tap(moving, [0, 1000]).state, [12, -8]);
    expect(step.done).toEqual({
      type: 'Polygon',
      ring: [
        [0, 0],
        [1000, 0],
        [1000, 1000],
        [0, 1000],
        [0, 0],
      ],
    });
    expect(step.state.points).toEqual([]);
    expect(measured(step.done)).toBe('Area 62,500 µm² · Perimeter 1,000 µm');
  });

  it('polygon: a double click (the last vertex tapped again) or Enter ends it; with two vertices it waits', () => {
    const twice = clicks('polygon', [
      [0, 0],
      [100, 0],
      [100, 0],
    ]);
    expect(twice.done).toBeUndefined();
    expect(twice.state.points).toHaveLength(2);
    const ended = clicks('polygon', [
      [0, 0],
      [100, 0],
      [100, 100],
      [101, 101],
    ]);
    expect(ended.done).toMatchObject({ type: 'Polygon' });
    const three = clicks('polygon', [
      [0, 0],
      [100, 0],
      [100, 100],
    ]);
    expect(finish(three.state).done).toMatchObject({
      type: 'Polygon',
      ring: [
        [0, 0],
        [100, 0],
        [100, 100],
        [0, 0],
      ],
    });
  });

  it('freehand: a stroke simplified to whole pixels; a scribble that encloses nothing is not a region', () => {
    const circle: P[] = Array.from({ length: 200 }, (_, i) => [
      500 + 300 * Math.cos((2 * Math.PI * i) / 200),
      500 + 300 * Math.sin((2 * Math.PI * i) / 200),
    ]);
    const { done } = drag(startDrawing('freehand'), circle[0], ...circle.slice(1));
    expect(done?.type).toBe('Polygon');
    const ring = (done as unknown as { ring: P[] }).ring;
    expect(ring.length).toBeGreaterThan(10);
    expect(ring.length).toBeLessThan(200);
    expect(ring.every(([x, y]) => Number.isInteger(x) && Number.isInteger(y))).toBe(true);
    expect(ring[0]).toEqual(ring.at(-1));
    // Area of a 300 px circle at 0.25 µm: π·75² ≈ 17,671 µm², within 1%.
    const area = measureContent(contentOf(done!, ''), quarter)!.area!;
    expect(Math.abs(area / (Math.PI * 75 * 75) - 1)).toBeLessThan(0.01);
    expect(drag(startDrawing('freehand'), [0, 0], [400, 0], [800, 1]).done).toBeUndefined();
  });

  it('polyline: taps place vertices, a double click ends it, stored as a LineString measured by length', () => {
    const step = clicks('polyline', [
      [0, 0],
      [300, 400],
      [300, 1000],
      [300, 1001],
    ]);
    expect(step.done).toEqual({
      type: 'LineString',
      points: [
        [0, 0],
        [300, 400],
        [300, 1000],
      ],
    });
    expect(contentOf(step.done!, '')).toMatchObject({ geometry: { type: 'LineString' } });
    expect(measured(step.done)).toBe('Length 275 µm');
    expect(finish(clicks('polyline', [[0, 0]]).state).done).toBeUndefined();
    // Drawn as an open line, not a region.
    expect(marksOf(contentOf(step.done!, ''))).toEqual([
      {
        points: [
          [0, 0],
          [300, 400],
          [300, 1000],
        ],
        closed: false,
      },
    ]);
  });

  it('ruler: a drag gives a two-point line whose length shows live', () => {
    let state = pointerDown(startDrawing('ruler'), [0, 0]).state;
    state = pointerMove(state, [600, 800], scale).state;
    expect(measured(previewOf(state))).toBe('Length 250 µm');
    const { done } = pointerUp(state, [600, 800], scale);
    expect(done).toEqual({
      type: 'LineString',
      points: [
        [0, 0],
        [600, 800],
      ],
    });
    expect(measurementText(measureContent(contentOf(done!, '')))).toBe('Length 1,000 px');
    expect(tap(startDrawing('ruler'), [5, 5]).done).toBeUndefined();
  });

  it('point: a tap places a Point, which measures nothing and is drawn as one position', () => {
    const { done } = tap(startDrawing('point'), [12.4, 99.6]);
    expect(done).toEqual({ type: 'Point', point: [12, 100] });
    const content = contentOf(done!, 'mitosis');
    expect(content).toMatchObject({
      geometry: { type: 'Point', coordinates: [12, 100] },
      properties: { text: 'mitosis' },
    });
    expect(measureContent(content, quarter)).toBeUndefined();
    expect(figuresOf(content)).toEqual([{ kind: 'point', points: [[12, 100]] }]);
    expect(marksOf(content)).toEqual([{ points: [[12, 100]], closed: false }]);
  });

  it('a second finger (a pinch) drops a drag in progress but keeps placed polygon vertices', () => {
    const dragging = pointerMove(
      pointerDown(startDrawing('rectangle'), [0, 0]).state,
      [500, 500],
      scale,
    ).state;
    const dropped = interrupt(dragging);
    expect(dropped.points).toEqual([]);
    expect(pointerUp(dropped, [500, 500], scale).done).toBeUndefined();
    const poly = clicks('polygon', [
      [0, 0],
      [100, 0],
    ]).state;
    const pressed = pointerDown(poly, [100, 100]).state;
    expect(interrupt(pressed).points).toHaveLength(2);
  });

  it('every shape survives a GeoJSON export and import (QuPath layout) and measures the same', () => {
    const shapes = [
      drag(startDrawing('rectangle'), [0, 0], [100, 50]).done!,
      drag(startDrawing('ellipse'), [0, 0], [100, 50]).done!,
      clicks('polygon', [
        [0, 0],
        [100, 0],
        [50, 80],
        [0, 0],
      ]).done!,
      clicks('polyline', [
        [0, 0],
        [100, 0],
        [100, 0],
      ]).done!,
      drag(startDrawing('ruler'), [0, 0], [30, 40]).done!,
      tap(startDrawing('point'), [7, 8]).done!,
    ];
    const file = annotationsToGeoJson(
      shapes.map((g, i) => ({ id: `a${i}`, name: `shape ${i}`, content: contentOf(g, `note ${i}`) })),
    );
    const back = parseGeoJsonImport(JSON.parse(JSON.stringify(file.collection)));
    if (!back.ok) throw new Error(back.errors.join('; '));
    expect(back.annotations).toHaveLength(shapes.length);
    expect(back.annotations.map((a) => a.content.geometry.type)).toEqual([
      'Polygon',
      'Polygon',
      'Polygon',
      'LineString',
      'LineString',
      'Point',
    ]);
    back.annotations.forEach((a, i) =>
      expect(measureContent(a.content, quarter)).toEqual(measureContent(contentOf(shapes[i], ''), quarter)),
    );
  });
});
