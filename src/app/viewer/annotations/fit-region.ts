// Showing a region picked in the Annotations panel: the viewer pans and zooms so that the region
// fills the view with room around it, as far as the viewer's own limits allow.
import type OpenSeadragon from 'openseadragon';
import type { Point } from './regions';

/** Room left around the region, as a share of its size on each side. */
const MARGIN = 0.25;
/** A point or a thin line still gets this many image pixels of view around it. */
const MIN_SIDE = 256;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The box around the points, grown by the margin and to the least size; none for no points. */
export function framedBox(points: Iterable<Point>): Box | undefined {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  if (!Number.isFinite(x0)) return undefined;
  const width = Math.max((x1 - x0) * (1 + 2 * MARGIN), MIN_SIDE);
  const height = Math.max((y1 - y0) * (1 + 2 * MARGIN), MIN_SIDE);
  return { x: (x0 + x1 - width) / 2, y: (y0 + y1 - height) / 2, width, height };
}

/** Fits the viewer to a box in the first image's pixels; nothing before the image has opened. */
export function fitImageBox(viewer: OpenSeadragon.Viewer, box: Box): void {
  const item = viewer.world.getItemAt(0);
  if (!item) return;
  const rect = item.imageToViewportRectangle(box.x, box.y, box.width, box.height);
  viewer.viewport.fitBoundsWithConstraints(rect);
}
