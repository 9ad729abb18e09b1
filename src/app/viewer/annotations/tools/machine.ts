// What each drawing tool does with one pointer (mouse, pen or a finger), as a pure state machine in
// level-0 image pixels: press, move and release give the next state and, once the shape is complete,
// its geometry. Drags make rectangles, ellipses, rulers and freehand outlines; clicks or taps place the
// vertices of polygons and polylines (tapping the first vertex closes a polygon, tapping the last
// vertex again — a double click — ends either; Enter does too); a tap places a point.
import { simplifyOutline, outlineArea, type Point } from '../regions';
import { ellipseFrom, lineOf, pointOf, polygonOf, rectangleFrom, type ToolGeometry } from './geometry';

export type DrawTool = 'rectangle' | 'ellipse' | 'polygon' | 'freehand' | 'polyline' | 'point' | 'ruler';

export interface DrawState {
  tool: DrawTool;
  /** Placed vertices (polygon, polyline), the stroke (freehand) or the press (drag tools, point). */
  points: Point[];
  /** Where the pointer is: the far corner of a drag, or the next vertex of a polygon or polyline. */
  cursor?: Point;
  /** A pointer is pressed. */
  down: boolean;
}

/**
 * Sizes in image pixels that depend on the zoom: `pixel` is one screen pixel; a vertex within
 * `snap` of the first or last one closes or ends the shape; smaller drags than `minDrag` are taps.
 */
export interface Scale {
  pixel: number;
}

const SNAP_SCREEN_PX = 10;
const MIN_DRAG_SCREEN_PX = 4;
/** A freehand stroke must enclose at least this many square screen pixels to be a region. */
const MIN_FREEHAND_SCREEN_PX = 8;

export interface Step {
  state: DrawState;
  /** The finished shape, when this step completed one (the state is then empty again). */
  done?: ToolGeometry;
}

export const startDrawing = (tool: DrawTool): DrawState => ({ tool, points: [], down: false });

const distance = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
const clicksTool = (tool: DrawTool) => tool === 'polygon' || tool === 'polyline';

export function pointerDown(s: DrawState, p: Point): Step {
  if (clicksTool(s.tool)) return { state: { ...s, down: true, cursor: p } };
  return { state: { ...s, points: [p], cursor: p, down: true } };
}

export function pointerMove(s: DrawState, p: Point, scale: Scale): Step {
  if (s.tool === 'freehand') {
    if (!s.down) return { state: s };
    const last = s.points[s.points.length - 1];
    // Sub-pixel moves add nothing but points.
    if (last && distance(last, p) < scale.pixel / 2) return { state: s };
    return { state: { ...s, points: [...s.points, p], cursor: p } };
  }
  if (clicksTool(s.tool) || s.down) return { state: { ...s, cursor: p } };
  return { state: s };
}

/** A finished shape and a fresh state for the next one. */
const finished = (s: DrawState, done?: ToolGeometry): Step => ({ state: startDrawing(s.tool), done });

export function pointerUp(s: DrawState, p: Point, scale: Scale): Step {
  if (!s.down) return { state: s };
  const start = s.points[0];
  const dragged = start !== undefined && distance(start, p) >= MIN_DRAG_SCREEN_PX * scale.pixel;
  switch (s.tool) {
    case 'rectangle': {
      const wide = Math.abs(p[0] - start[0]) >= MIN_DRAG_SCREEN_PX * scale.pixel;
      const tall = Math.abs(p[1] - start[1]) >= MIN_DRAG_SCREEN_PX * scale.pixel;
      return finished(s, wide && tall ? rectangleFrom(start, p) : undefined);
    }
    case 'ellipse': {
      const wide = Math.abs(p[0] - start[0]) >= MIN_DRAG_SCREEN_PX * scale.pixel;
      const tall = Math.abs(p[1] - start[1]) >= MIN_DRAG_SCREEN_PX * scale.pixel;
      return finished(s, wide && tall ? ellipseFrom(start, p) : undefined);
    }
    case 'ruler':
      return finished(s, dragged ? lineOf([start, p]) : undefined);
    case 'point':
      return finished(s, pointOf(p));
    case 'freehand': {
      const outline = simplifyOutline([...s.points, p], scale.pixel);
      const enough =
        outline.length >= 3 && outlineArea(outline) >= (MIN_FREEHAND_SCREEN_PX * scale.pixel) ** 2;
      return finished(s, enough ? polygonOf(outline) : undefined);
    }
    case 'polygon':
    case 'polyline': {
      const snap = SNAP_SCREEN_PX * scale.pixel;
      const first = s.points[0];
      const last = s.points[s.points.length - 1];
      if (s.tool === 'polygon' && s.points.length >= 3 && distance(first, p) <= snap) return finish(s);
      if (last && distance(last, p) <= snap) {
        // The last vertex tapped again (or a double click) ends the shape when it has enough vertices.
        const ended = finish(s);
        return ended.done ? ended : { state: { ...s, down: false, cursor: p } };
      }
      return { state: { ...s, points: [...s.points, p], cursor: p, down: false } };
    }
  }
}

/** Ends a polygon or polyline with the vertices placed so far (Enter, double click); else nothing. */
export function finish(s: DrawState): Step {
  if (s.tool === 'polygon' && s.points.length >= 3) return finished(s, polygonOf(s.points));
  if (s.tool === 'polyline' && s.points.length >= 2) return finished(s, lineOf(s.points));
  return { state: { ...s, down: false } };
}

/**
 * A second finger came down: the gesture is a pinch, not a drawing. A drag in progress is dropped; the
 * vertices a polygon or polyline already has are kept.
 */
export function interrupt(s: DrawState): DrawState {
  if (clicksTool(s.tool)) return { ...s, down: false, cursor: undefined };
  return startDrawing(s.tool);
}

/** The shape as it would be now, for the live outline and measurement (raw pointer positions). */
export function previewOf(s: DrawState): ToolGeometry | undefined {
  const start = s.points[0];
  const c = s.cursor;
  switch (s.tool) {
    case 'rectangle':
      return s.down && start && c ? rectangleFrom(start, c) : undefined;
    case 'ellipse':
      return s.down && start && c ? ellipseFrom(start, c) : undefined;
    case 'ruler':
      return s.down && start && c ? lineOf([start, c]) : undefined;
    case 'point':
      return undefined;
    case 'freehand':
      return s.points.length >= 3
        ? polygonOf(s.points)
        : s.points.length === 2
          ? lineOf(s.points)
          : undefined;
    case 'polygon':
    case 'polyline': {
      const pts = c ? [...s.points, c] : s.points;
      if (s.tool === 'polygon' && pts.length >= 3) return polygonOf(pts);
      return pts.length >= 2 ? lineOf(pts) : undefined;
    }
  }
}
