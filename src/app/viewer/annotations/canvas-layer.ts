// Saved annotations drawn on one <canvas> over the deep-zoom view: thousands of outlines cost one
// canvas, not thousands of SVG elements. A drawing holds only the outlines whose boxes meet the view
// (spatial-grid.ts), at the detail the zoom can show (outline-lod.ts); an outline a pixel or two wide
// is drawn as a small square. The canvas reaches MARGIN CSS pixels beyond each edge of the view (its
// parent clips it): while panning at one scale, the view and the margin are drawn once and the canvas
// is only moved with a CSS transform, frame after frame, until the view leaves the margin, so the
// browser composites a moved layer instead of rasterising and handing over a new canvas each frame.
// The view is given by the caller on each frame of the viewer's animation and the canvas is redrawn
// then, only when the view changed; other changes (the set, shown or hidden) redraw on the next
// animation frame. The selected region is outlined by the caller, not here: a selection redraws
// nothing.
import { LevelCache, distanceToOutline, insideOutline } from './outline-lod';
import { GridIndex, boxOf, type Box } from './spatial-grid';
import type { Outline } from './regions';

/** One annotation as the layer draws it. */
export interface LayerShape {
  key: string;
  name: string;
  outlines: Outline[];
  /** Queued, not yet stored: drawn dashed. */
  pending: boolean;
  /** The class colour as CSS, if any. */
  color?: string;
}

/** Image pixels → the canvas element's CSS pixels: one scale and an offset (the viewer never rotates). */
export interface View {
  x: number;
  y: number;
  scale: number;
}

const FILL = 'rgba(255, 196, 0, 0.12)';
const STROKE = '#fab005';
const PENDING = '#f08c00';
/** Below this many screen pixels, an outline is drawn as its box. */
const TINY = 3;
/** How near (screen pixels) a click must be to an outline's edge to pick it from outside. */
export const HIT_SLACK = 4;

/** CSS pixels drawn beyond each edge of the view while panning: the drawing moves, not redrawn. */
const MARGIN = 256;

/** What is on the canvas: the view it was drawn for, and whether its margin is drawn too. */
interface Drawn {
  x: number;
  y: number;
  scale: number;
  /** Drawn for a pan (the margin too), not for a frame of a zoom (the view only). */
  margin: boolean;
  visible: number;
}

/** Scales equal but for floating-point rounding. */
const sameScale = (a: number, b: number) => Math.abs(a / b - 1) < 1e-9;

interface Entry {
  shape: LayerShape;
  box: Box;
  lods: LevelCache[];
}

/** What the last frame drew, for the bench and for tests. */
export interface FrameStats {
  visible: number;
  vertices: number;
  ms: number;
}

export class CanvasLayer {
  private entries: Entry[] = [];
  private index = new GridIndex([]);
  private view: View | undefined;
  private shown = true;
  private frame = 0;
  private width = 0;
  private height = 0;
  last: FrameStats = { visible: 0, vertices: 0, ms: 0 };
  private drawn: Drawn | undefined;
  /** Nothing on the canvas: a frame with nothing to draw then leaves it as it is. */
  private blank = true;
  private lastScale: number | undefined;

  /** The element's size as last observed: read from a ResizeObserver, not from layout each frame. */
  private size = { width: 0, height: 0 };
  private readonly observer: ResizeObserver;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly onDrawn?: (stats: FrameStats) => void,
  ) {
    // The canvas is laid out MARGIN beyond each edge of its parent, whose size is the view's.
    Object.assign(canvas.style, {
      position: 'absolute',
      left: `${-MARGIN}px`,
      top: `${-MARGIN}px`,
      willChange: 'transform',
    });
    const parent = canvas.parentElement ?? canvas;
    this.size = { width: parent.clientWidth, height: parent.clientHeight };
    this.observer = new ResizeObserver(([entry]) => {
      this.size = { width: entry.contentRect.width, height: entry.contentRect.height };
      this.schedule();
    });
    this.observer.observe(parent);
  }

  setShapes(shapes: readonly LayerShape[]): void {
    this.entries = shapes.map((shape) => ({
      shape,
      box: boxOf(shape.outlines.flat()),
      lods: shape.outlines.map((o) => new LevelCache(o)),
    }));
    this.index = new GridIndex(this.entries.map((e) => e.box));
    this.drawn = undefined;
    this.schedule();
  }

  setShown(shown: boolean): void {
    if (shown === this.shown) return;
    this.shown = shown;
    this.drawn = undefined;
    this.schedule();
  }

  /** Called on each frame of the viewer's animation: draws at once when the view moved. */
  setView(view: View | undefined): void {
    const v = this.view;
    if (v && view && v.x === view.x && v.y === view.y && v.scale === view.scale && !this.resized()) return;
    this.view = view;
    this.draw();
  }

  /** The annotation at a point of the canvas (CSS pixels): the smallest one containing it, else the nearest edge. */
  hitTest(px: number, py: number): LayerShape | undefined {
    const view = this.view;
    if (!view || !this.shown || view.scale <= 0) return undefined;
    const x = (px - view.x) / view.scale;
    const y = (py - view.y) / view.scale;
    const slack = HIT_SLACK / view.scale;
    let best: Entry | undefined;
    let bestArea = Infinity;
    let nearest: Entry | undefined;
    let nearestDistance = slack;
    for (const i of this.index.at(x, y, slack)) {
      const e = this.entries[i];
      for (const o of e.shape.outlines) {
        const area = (e.box.maxX - e.box.minX) * (e.box.maxY - e.box.minY);
        if (o.length > 2 && insideOutline(o, x, y) && area < bestArea) [best, bestArea] = [e, area];
        const d = distanceToOutline(o, x, y);
        if (d <= nearestDistance) [nearest, nearestDistance] = [e, d];
      }
    }
    return (best ?? nearest)?.shape;
  }

  destroy(): void {
    this.observer.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  private schedule() {
    this.frame ||= requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Whether the element's size changed since the last frame (the backing store follows it). */
  private resized() {
    return this.size.width !== this.width || this.size.height !== this.height;
  }

  private draw() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const started = performance.now();
    const canvas = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    if (this.resized()) {
      this.width = this.size.width;
      this.height = this.size.height;
      canvas.width = Math.round((this.width + 2 * MARGIN) * dpr);
      canvas.height = Math.round((this.height + 2 * MARGIN) * dpr);
      canvas.style.width = `${this.width + 2 * MARGIN}px`;
      canvas.style.height = `${this.height + 2 * MARGIN}px`;
      this.blank = true;
      this.drawn = undefined;
    }
    const view = this.view;
    // The scale is worked out from two points each frame: a pan moves it by rounding alone.
    const zooming = !view || !this.lastScale || !sameScale(this.lastScale, view.scale);
    this.lastScale = view?.scale;
    if (!view || !this.shown || view.scale <= 0) {
      this.clear();
      this.drawn = undefined;
      this.finish(started, 0, 0);
      return;
    }
    const d = this.drawn;
    const dx = d ? view.x - d.x : 0;
    const dy = d ? view.y - d.y : 0;
    if (
      d?.margin &&
      !zooming &&
      sameScale(d.scale, view.scale) &&
      Math.abs(dx) <= MARGIN &&
      Math.abs(dy) <= MARGIN
    ) {
      // A pan within the margin: the drawing is moved, whole device pixels (no resampling).
      this.place(dx, dy, dpr);
      this.finish(started, d.visible, 0);
      return;
    }
    // A frame of a zoom draws the view only (the scale changes again next frame), a pan the margin too.
    const visible = this.visibleIn(view, zooming ? 0 : MARGIN);
    let vertices = 0;
    if (visible.length > 0 || !this.blank) {
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      this.clear();
      ctx.setTransform(dpr, 0, 0, dpr, MARGIN * dpr, MARGIN * dpr);
      vertices = this.render(ctx, view, visible);
      this.blank = visible.length === 0;
    }
    this.drawn = { x: view.x, y: view.y, scale: view.scale, margin: !zooming, visible: visible.length };
    this.place(0, 0, dpr);
    this.finish(started, visible.length, vertices);
  }

  private clear() {
    if (this.blank) return;
    const ctx = this.canvas.getContext('2d');
    ctx?.setTransform(1, 0, 0, 1, 0, 0);
    ctx?.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.blank = true;
  }

  /** Moves the canvas by (dx, dy) CSS pixels from where it was drawn. */
  private place(dx: number, dy: number, dpr: number) {
    const x = Math.round(dx * dpr) / dpr;
    const y = Math.round(dy * dpr) / dpr;
    this.canvas.style.transform = x || y ? `translate(${x}px, ${y}px)` : '';
  }

  /** The entries whose boxes meet the view widened by `margin` CSS pixels. */
  private visibleIn({ x: ox, y: oy, scale }: View, margin: number): number[] {
    return this.index.search({
      minX: (-margin - ox) / scale,
      minY: (-margin - oy) / scale,
      maxX: (this.width + margin - ox) / scale,
      maxY: (this.height + margin - oy) / scale,
    });
  }

  /**
   * Draws the `visible` entries on `ctx`, whose transform maps the view's CSS pixels; returns the
   * vertices drawn. One path per region, styles set once per style: Chromium fills and strokes many
   * small paths faster than one path of thousands of contours.
   */
  private render(ctx: CanvasRenderingContext2D, view: View, visible: number[]): number {
    const byStyle = new Map<string, Entry[]>();
    for (const i of visible) {
      const e = this.entries[i];
      const style = `${e.shape.pending ? 'p' : 's'}${e.shape.pending ? PENDING : (e.shape.color ?? STROKE)}`;
      let list = byStyle.get(style);
      if (!list) byStyle.set(style, (list = []));
      list.push(e);
    }
    ctx.fillStyle = FILL;
    ctx.lineWidth = 2;
    let vertices = 0;
    for (const [style, list] of byStyle) {
      ctx.setLineDash(style[0] === 'p' ? [6, 4] : []);
      ctx.strokeStyle = style.slice(1);
      for (const e of list) {
        ctx.beginPath();
        vertices += this.trace(ctx, e, view);
        ctx.fill();
        ctx.stroke();
      }
    }
    return vertices;
  }

  /** Adds the entry's outlines (or its box, when tiny on screen) to the current path; returns the vertices added. */
  private trace(path: CanvasRenderingContext2D, e: Entry, { x: ox, y: oy, scale }: View): number {
    const { box } = e;
    if ((box.maxX - box.minX) * scale < TINY && (box.maxY - box.minY) * scale < TINY) {
      path.rect(ox + box.minX * scale, oy + box.minY * scale, TINY, TINY);
      return 4;
    }
    let n = 0;
    for (const lod of e.lods) {
      const pts = lod.at(scale);
      if (pts.length < 4) continue;
      path.moveTo(ox + pts[0] * scale, oy + pts[1] * scale);
      for (let k = 2; k < pts.length; k += 2) path.lineTo(ox + pts[k] * scale, oy + pts[k + 1] * scale);
      path.closePath();
      n += pts.length / 2;
    }
    return n;
  }

  private finish(started: number, visible: number, vertices: number) {
    this.last = { visible, vertices, ms: performance.now() - started };
    this.onDrawn?.(this.last);
  }
}
