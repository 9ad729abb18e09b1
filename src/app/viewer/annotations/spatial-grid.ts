// A uniform grid over the bounding boxes of an image's annotations: the viewer asks it which boxes
// meet the visible part of the slide (so a frame draws only those) and which contain a clicked point
// (so a click tests a handful of outlines, not all of them). Built once per change of the set; each
// query visits only the cells it covers, so its cost follows what it finds, not how many there are.

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** At most this many cells per indexed box on average: a few huge boxes must not make it quadratic. */
const CELLS_PER_BOX = 4;

export class GridIndex {
  private readonly boxes: readonly Box[];
  private readonly originX: number;
  private readonly originY: number;
  private readonly cell: number;
  private readonly cols: number;
  private readonly rows: number;
  /** Box indices per cell, row-major; a box spanning several cells is listed in each. */
  private readonly cells: number[][];
  /** The query each box was last seen in: a box listed in several cells is reported once. */
  private readonly seen: Uint32Array;
  private query = 0;

  constructor(boxes: readonly Box[]) {
    this.boxes = boxes;
    this.seen = new Uint32Array(boxes.length);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    const sides: number[] = [];
    for (const b of boxes) {
      minX = Math.min(minX, b.minX);
      minY = Math.min(minY, b.minY);
      maxX = Math.max(maxX, b.maxX);
      maxY = Math.max(maxY, b.maxY);
      sides.push(Math.max(b.maxX - b.minX, b.maxY - b.minY));
    }
    if (boxes.length === 0) [minX, minY, maxX, maxY] = [0, 0, 1, 1];
    sides.sort((a, b) => a - b);
    const width = Math.max(maxX - minX, 1);
    const height = Math.max(maxY - minY, 1);
    // About one box per cell, and no finer than a typical box (a box then spans a few cells).
    const median = sides.length ? sides[sides.length >> 1] : 1;
    let cell = Math.max(median, Math.sqrt((width * height) / Math.max(boxes.length, 1)), 1e-9);
    while ((width / cell + 1) * (height / cell + 1) > CELLS_PER_BOX * Math.max(boxes.length, 1) + 16)
      cell *= 1.5;
    this.originX = minX;
    this.originY = minY;
    this.cell = cell;
    this.cols = Math.floor(width / cell) + 1;
    this.rows = Math.floor(height / cell) + 1;
    this.cells = Array.from({ length: this.cols * this.rows }, () => []);
    boxes.forEach((b, i) => this.visit(b, (c) => this.cells[c].push(i)));
  }

  get size(): number {
    return this.boxes.length;
  }

  private col(x: number) {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.originX) / this.cell)));
  }

  private row(y: number) {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.originY) / this.cell)));
  }

  private visit(b: Box, fn: (cell: number) => void) {
    const [c0, c1, r0, r1] = [this.col(b.minX), this.col(b.maxX), this.row(b.minY), this.row(b.maxY)];
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) fn(r * this.cols + c);
  }

  /** The indices of the boxes that meet `area` (edges included), ascending: the set's own order. */
  search(area: Box): number[] {
    const out: number[] = [];
    if (this.boxes.length === 0) return out;
    if (area.maxX < area.minX || area.maxY < area.minY) return out;
    const q = this.nextQuery();
    this.visit(area, (c) => {
      for (const i of this.cells[c]) {
        if (this.seen[i] === q) continue;
        this.seen[i] = q;
        const b = this.boxes[i];
        if (b.minX <= area.maxX && b.maxX >= area.minX && b.minY <= area.maxY && b.maxY >= area.minY)
          out.push(i);
      }
    });
    return out.sort((a, b) => a - b);
  }

  /** The boxes within `slack` of the point (x, y). */
  at(x: number, y: number, slack = 0): number[] {
    return this.search({ minX: x - slack, minY: y - slack, maxX: x + slack, maxY: y + slack });
  }

  private nextQuery() {
    this.query = (this.query + 1) >>> 0;
    if (this.query === 0) {
      this.seen.fill(0);
      this.query = 1;
    }
    return this.query;
  }
}

/** The bounding box of some points given as [x, y] pairs. */
export function boxOf(points: Iterable<readonly [number, number]>): Box {
  const b = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const [x, y] of points) {
    if (x < b.minX) b.minX = x;
    if (y < b.minY) b.minY = y;
    if (x > b.maxX) b.maxX = x;
    if (y > b.maxY) b.maxY = y;
  }
  return b;
}
