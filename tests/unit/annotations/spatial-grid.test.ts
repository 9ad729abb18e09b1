// The viewer's spatial index: the boxes a view or a click meets are exactly those a full scan finds,
// each once and in the set's order, whatever the boxes' sizes (tiny, huge, overlapping, degenerate).
import { describe, expect, it } from 'vitest';
import { GridIndex, boxOf, type Box } from '../../../src/app/viewer/annotations/spatial-grid';

/** A small deterministic generator, so a failure repeats. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const meets = (a: Box, b: Box) =>
  a.minX <= b.maxX && a.maxX >= b.minX && a.minY <= b.maxY && a.maxY >= b.minY;
const scan = (boxes: Box[], area: Box) => boxes.flatMap((b, i) => (meets(b, area) ? [i] : []));

function boxes(n: number, rnd: () => number, extent = 100_000): Box[] {
  return Array.from({ length: n }, (_, i) => {
    const x = rnd() * extent;
    const y = rnd() * extent;
    // Mostly cell-sized, some tiny, a few spanning much of the slide.
    const side = i % 97 === 0 ? extent * rnd() : i % 7 === 0 ? rnd() * 2 : 50 + rnd() * 800;
    return { minX: x, minY: y, maxX: x + side, maxY: y + side * (0.5 + rnd()) };
  });
}

describe('GridIndex', () => {
  it('finds exactly the boxes a full scan finds, once each, in order', () => {
    const rnd = random(7);
    const set = boxes(5_000, rnd);
    const index = new GridIndex(set);
    for (let q = 0; q < 200; q++) {
      const x = rnd() * 110_000 - 5_000;
      const y = rnd() * 110_000 - 5_000;
      const w = q % 10 === 0 ? 200_000 : rnd() * 5_000;
      const area = { minX: x, minY: y, maxX: x + w, maxY: y + w * rnd() };
      expect(index.search(area)).toEqual(scan(set, area));
    }
  });

  it('answers a point with the boxes around it, within the slack', () => {
    const set = [
      { minX: 0, minY: 0, maxX: 10, maxY: 10 },
      { minX: 5, minY: 5, maxX: 20, maxY: 20 },
      { minX: 100, minY: 100, maxX: 100, maxY: 100 },
    ];
    const index = new GridIndex(set);
    expect(index.at(7, 7)).toEqual([0, 1]);
    expect(index.at(15, 15)).toEqual([1]);
    expect(index.at(50, 50)).toEqual([]);
    expect(index.at(98, 98)).toEqual([]);
    expect(index.at(98, 98, 2)).toEqual([2]);
    // Outside the indexed extent.
    expect(index.at(-50, -50)).toEqual([]);
    expect(index.at(-1, -1, 1)).toEqual([0]);
  });

  it('holds no boxes, one box, and boxes all at one point', () => {
    expect(new GridIndex([]).search({ minX: 0, minY: 0, maxX: 1e9, maxY: 1e9 })).toEqual([]);
    expect(new GridIndex([{ minX: 3, minY: 3, maxX: 3, maxY: 3 }]).at(3, 3)).toEqual([0]);
    const same = Array.from({ length: 50 }, () => ({ minX: 1, minY: 1, maxX: 1, maxY: 1 }));
    expect(new GridIndex(same).at(1, 1)).toHaveLength(50);
  });

  it('visits only the cells a small query covers among 10,000 boxes', () => {
    const rnd = random(3);
    const set = boxes(10_000, rnd).map((b) => ({ ...b, maxX: Math.min(b.maxX, b.minX + 900) }));
    const index = new GridIndex(set);
    const started = performance.now();
    let found = 0;
    for (let q = 0; q < 1_000; q++) found += index.at(rnd() * 100_000, rnd() * 100_000, 4).length;
    const perQuery = (performance.now() - started) / 1_000;
    // A full scan of 10,000 boxes per click; the grid looks at a few cells.
    expect(found).toBeGreaterThan(0);
    expect(perQuery).toBeLessThan(0.5);
  });

  it('gives the bounding box of points', () => {
    expect(
      boxOf([
        [3, 9],
        [-1, 4],
        [7, -2],
      ]),
    ).toEqual({ minX: -1, minY: -2, maxX: 7, maxY: 9 });
  });
});
