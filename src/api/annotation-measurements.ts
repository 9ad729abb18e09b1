// Measurements of annotations: length of lines, perimeter and area of closed shapes, in µm and µm²
// from the image's pixel size (µm per level-0 pixel, x and y apart), or in pixels when the image does
// not say; and the text the viewer shows for them. Pure functions shared by the app and the server.
import { figuresOf, type Figure, type Ring } from './annotation-shapes';

/** µm per level-0 pixel along x and y; undefined when the image does not say. */
export interface PixelSize {
  x: number;
  y: number;
}

/** An image's pixel size from its `pixelScale` (square pixels), or undefined when unknown or nonsense. */
export function pixelSizeOf(
  scale: number | { x: number; y: number } | null | undefined,
): PixelSize | undefined {
  if (typeof scale === 'number')
    return scale > 0 && Number.isFinite(scale) ? { x: scale, y: scale } : undefined;
  if (scale && scale.x > 0 && scale.y > 0 && Number.isFinite(scale.x) && Number.isFinite(scale.y))
    return { x: scale.x, y: scale.y };
  return undefined;
}

/**
 * What a figure measures. `length` is a line's length, `perimeter` and `area` a closed shape's; all in
 * µm / µm² when `calibrated`, else in pixels / px².
 */
export interface Measurement {
  calibrated: boolean;
  length?: number;
  perimeter?: number;
  area?: number;
}

/** Above this many µm², areas are written in mm². */
export const MM2_FROM_UM2 = 1_000_000;

export const MeasurementText = {
  area: 'Area',
  perimeter: 'Perimeter',
  length: 'Length',
  /** Said once in the annotations panel when the image has no pixel size. */
  pixelSizeUnknown: 'Pixel size unknown: measurements are in pixels',
} as const;

/** Length of an open path, scaled by (sx, sy) per pixel. */
function pathLength(points: Ring, sx: number, sy: number): number {
  let sum = 0;
  for (let i = 1; i < points.length; i++)
    sum += Math.hypot((points[i][0] - points[i - 1][0]) * sx, (points[i][1] - points[i - 1][1]) * sy);
  return sum;
}

/** Whether a ring repeats its first position at the end (GeoJSON closes rings that way). */
const closedRing = (ring: Ring) =>
  ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1];

/** Perimeter of a ring, closing it if it is open. */
export function ringPerimeter(ring: Ring, sx = 1, sy = 1): number {
  if (ring.length < 2) return 0;
  const back = closedRing(ring)
    ? 0
    : Math.hypot((ring[0][0] - ring.at(-1)![0]) * sx, (ring[0][1] - ring.at(-1)![1]) * sy);
  return pathLength(ring, sx, sy) + back;
}

/** Unsigned area of a ring by the shoelace formula (closed or not), scaled by sx·sy per px². */
export function ringArea(ring: Ring, sx = 1, sy = 1): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % ring.length];
    sum += x1 * y2 - x2 * y1;
  }
  return (Math.abs(sum) / 2) * sx * sy;
}

/** Perimeter of an ellipse with semi-axes a and b (Ramanujan's second approximation: within 0.005%). */
export function ellipsePerimeter(a: number, b: number): number {
  if (a + b === 0) return 0;
  const h = ((a - b) / (a + b)) ** 2;
  return Math.PI * (a + b) * (1 + (3 * h) / (10 + Math.sqrt(4 - 3 * h)));
}

/** What one figure measures at a pixel size (pixels when it is undefined). */
export function measureFigure(figure: Figure, pixelSize?: PixelSize): Measurement {
  const calibrated = !!pixelSize;
  const sx = pixelSize?.x ?? 1;
  const sy = pixelSize?.y ?? 1;
  switch (figure.kind) {
    case 'polygon': {
      // Holes take their area off; the perimeter counts every ring (as JTS and QuPath do).
      const [outer, ...holes] = figure.rings;
      const area = ringArea(outer, sx, sy) - holes.reduce((s, h) => s + ringArea(h, sx, sy), 0);
      const perimeter = figure.rings.reduce((s, r) => s + ringPerimeter(r, sx, sy), 0);
      return { calibrated, area: Math.max(0, area), perimeter };
    }
    case 'rectangle':
      return {
        calibrated,
        area: figure.width * sx * figure.height * sy,
        perimeter: 2 * (figure.width * sx + figure.height * sy),
      };
    case 'ellipse': {
      const a = figure.rx * sx;
      const b = figure.ry * sy;
      return { calibrated, area: Math.PI * a * b, perimeter: ellipsePerimeter(a, b) };
    }
    case 'polyline':
      return { calibrated, length: pathLength(figure.points, sx, sy) };
    case 'point':
      return { calibrated };
  }
}

/** What an annotation's content measures: the sums over its figures; undefined when it has none to measure. */
export function measureContent(content: unknown, pixelSize?: PixelSize): Measurement | undefined {
  const all = figuresOf(content).map((f) => measureFigure(f, pixelSize));
  const sum = (key: 'length' | 'perimeter' | 'area') => {
    const parts = all.filter((m) => m[key] !== undefined);
    return parts.length ? parts.reduce((s, m) => s + m[key]!, 0) : undefined;
  };
  const m: Measurement = {
    calibrated: !!pixelSize,
    length: sum('length'),
    perimeter: sum('perimeter'),
    area: sum('area'),
  };
  return m.length === undefined && m.area === undefined ? undefined : m;
}

/** A number as people read it: grouped thousands, 2 decimals under 10, 1 under 100, none above. */
export function formatNumber(v: number): string {
  const digits = Math.abs(v) < 10 ? 2 : Math.abs(v) < 100 ? 1 : 0;
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A length: "350 µm", or "350 px" uncalibrated. */
export const formatLength = (value: number, calibrated: boolean): string =>
  `${formatNumber(value)} ${calibrated ? 'µm' : 'px'}`;

/** An area: "5,000 µm²", "1.23 mm²" above 1,000,000 µm², or "5,000 px²" uncalibrated. */
export function formatArea(value: number, calibrated: boolean): string {
  if (!calibrated) return `${formatNumber(value)} px²`;
  return value > MM2_FROM_UM2 ? `${formatNumber(value / MM2_FROM_UM2)} mm²` : `${formatNumber(value)} µm²`;
}

/** The displayed text: "Area 1.23 mm² · Perimeter 4,400 µm", "Length 350 µm"; '' for nothing measurable. */
export function measurementText(m: Measurement | undefined): string {
  if (!m) return '';
  const parts: string[] = [];
  if (m.area !== undefined) parts.push(`${MeasurementText.area} ${formatArea(m.area, m.calibrated)}`);
  if (m.perimeter !== undefined)
    parts.push(`${MeasurementText.perimeter} ${formatLength(m.perimeter, m.calibrated)}`);
  if (m.length !== undefined) parts.push(`${MeasurementText.length} ${formatLength(m.length, m.calibrated)}`);
  return parts.join(' · ');
}
