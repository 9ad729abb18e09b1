// Measurements of known shapes at a known pixel size (0.25 µm per pixel unless said), and their text.
import { describe, expect, it } from 'vitest';
import {
  ellipsePerimeter,
  formatArea,
  formatLength,
  measureContent,
  measureFigure,
  measurementText,
  pixelSizeOf,
} from '../../../src/api/annotation-measurements';
import { ringOfHint, type Position } from '../../../src/api/annotation-shapes';

const quarter = { x: 0.25, y: 0.25 };
const rect = (x: number, y: number, w: number, h: number): Position[] =>
  ringOfHint({ type: 'rectangle', x, y, width: w, height: h });
const feature = (geometry: object, properties: object = {}) => ({ type: 'Feature', geometry, properties });

describe('annotation measurements', () => {
  it('a rectangle: area and perimeter in µm² and µm, as a polygon and as a rectangle', () => {
    const asPolygon = measureFigure({ kind: 'polygon', rings: [rect(10, 20, 400, 200)] }, quarter);
    expect(asPolygon).toEqual({ calibrated: true, area: 5000, perimeter: 300 });
    const exact = measureFigure({ kind: 'rectangle', x: 10, y: 20, width: 400, height: 200 }, quarter);
    expect(exact).toEqual(asPolygon);
    expect(measurementText(exact)).toBe('Area 5,000 µm² · Perimeter 300 µm');
  });

  it('a triangle by the shoelace formula, whichever way round and whether closed or not', () => {
    const ring: Position[] = [
      [0, 0],
      [400, 0],
      [0, 300],
    ];
    const m = measureFigure({ kind: 'polygon', rings: [ring] }, quarter);
    expect(m.area).toBeCloseTo(60_000 * 0.0625, 9);
    expect(m.perimeter).toBeCloseTo(1200 * 0.25, 9);
    const reversed = measureFigure({ kind: 'polygon', rings: [[...ring, ring[0]].reverse()] }, quarter);
    expect(reversed.area).toBeCloseTo(m.area!, 9);
    expect(reversed.perimeter).toBeCloseTo(m.perimeter!, 9);
  });

  it('a hole takes its area off; the perimeter counts both rings', () => {
    const m = measureFigure(
      { kind: 'polygon', rings: [rect(0, 0, 1000, 1000), rect(400, 400, 200, 200)] },
      quarter,
    );
    expect(m.area).toBe(960_000 * 0.0625);
    expect(m.perimeter).toBe((4000 + 800) * 0.25);
  });

  it('an ellipse: πab and Ramanujan’s perimeter; its 64-gon is within 0.2%', () => {
    const m = measureFigure({ kind: 'ellipse', cx: 500, cy: 500, rx: 200, ry: 100 }, quarter);
    expect(m.area).toBeCloseTo(Math.PI * 50 * 25, 9);
    // The series value of the perimeter of a 50 × 25 µm ellipse.
    expect(m.perimeter).toBeCloseTo(242.2112, 3);
    expect(ellipsePerimeter(10, 10)).toBeCloseTo(2 * Math.PI * 10, 9);
    const polygon = measureFigure(
      { kind: 'polygon', rings: [ringOfHint({ type: 'ellipse', cx: 500, cy: 500, rx: 200, ry: 100 })] },
      quarter,
    );
    expect(Math.abs(polygon.area! - m.area!) / m.area!).toBeLessThan(0.002);
  });

  it('a polyline: its length; a point measures nothing', () => {
    const line = measureFigure(
      {
        kind: 'polyline',
        points: [
          [0, 0],
          [300, 400],
          [300, 0],
        ],
      },
      quarter,
    );
    expect(line).toEqual({ calibrated: true, length: 225 });
    expect(measurementText(line)).toBe('Length 225 µm');
    expect(measureContent(feature({ type: 'Point', coordinates: [1, 2] }), quarter)).toBeUndefined();
  });

  it('mm² above 1,000,000 µm², µm² up to it; small values keep decimals', () => {
    expect(formatArea(4_000_000, true)).toBe('4.00 mm²');
    expect(formatArea(1_000_000, true)).toBe('1,000,000 µm²');
    expect(formatArea(123_456_789, true)).toBe('123 mm²');
    expect(formatArea(12.345, true)).toBe('12.3 µm²');
    expect(formatLength(3.14159, true)).toBe('3.14 µm');
    const big = measureFigure({ kind: 'rectangle', x: 0, y: 0, width: 8000, height: 8000 }, quarter);
    expect(measurementText(big)).toBe('Area 4.00 mm² · Perimeter 8,000 µm');
  });

  it('pixels when the pixel size is unknown', () => {
    expect(pixelSizeOf(null)).toBeUndefined();
    expect(pixelSizeOf(0)).toBeUndefined();
    expect(pixelSizeOf(0.5)).toEqual({ x: 0.5, y: 0.5 });
    const m = measureFigure({ kind: 'rectangle', x: 0, y: 0, width: 2000, height: 1000 }, pixelSizeOf(null));
    expect(m).toEqual({ calibrated: false, area: 2_000_000, perimeter: 6000 });
    // Never mm² for pixels.
    expect(measurementText(m)).toBe('Area 2,000,000 px² · Perimeter 6,000 px');
  });

  it('non-square pixels scale x and y apart', () => {
    const m = measureFigure({ kind: 'rectangle', x: 0, y: 0, width: 100, height: 100 }, { x: 0.5, y: 0.25 });
    expect(m.area).toBe(50 * 25);
    expect(m.perimeter).toBe(2 * (50 + 25));
    const line = measureFigure(
      {
        kind: 'polyline',
        points: [
          [0, 0],
          [0, 100],
        ],
      },
      { x: 0.5, y: 0.25 },
    );
    expect(line.length).toBe(25);
  });

  it("an annotation's content: regions, the exact ellipse of a shape hint, sums of several parts, notes", () => {
    const region = feature({ type: 'Polygon', coordinates: [rect(0, 0, 400, 200)] }, { text: 'x' });
    expect(measureContent(region, quarter)).toEqual({
      calibrated: true,
      area: 5000,
      perimeter: 300,
      length: undefined,
    });
    const hint = { type: 'ellipse', cx: 500, cy: 500, rx: 200, ry: 100 } as const;
    const ellipse = feature({ type: 'Polygon', coordinates: [ringOfHint(hint)] }, { shape: hint });
    expect(measureContent(ellipse, quarter)?.area).toBeCloseTo(Math.PI * 1250, 9);
    const multi = feature({
      type: 'MultiPolygon',
      coordinates: [[rect(0, 0, 400, 200)], [rect(1000, 0, 400, 200)]],
    });
    expect(measureContent(multi, quarter)?.area).toBe(10_000);
    expect(measureContent({ text: 'just a note' }, quarter)).toBeUndefined();
  });
});
