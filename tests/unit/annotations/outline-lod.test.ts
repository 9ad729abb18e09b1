// Outlines by zoom: sub-pixel vertices are skipped (far fewer at low zoom, none lost at full
// resolution), the shape stays within a screen pixel or two, levels are cached, and a click knows
// inside from outside.
import { describe, expect, it } from 'vitest';
import {
  LevelCache,
  distanceToOutline,
  insideOutline,
  levelOf,
  stepOfLevel,
  thinOutline,
} from '../../../src/app/viewer/annotations/outline-lod';
import type { Point } from '../../../src/app/viewer/annotations/regions';

/** A wobbly closed outline of n vertices around (cx, cy), like a traced gland. */
const blob = (n: number, cx = 1_000, cy = 1_000, r = 150): Point[] =>
  Array.from({ length: n }, (_, i) => {
    const a = (i / n) * 2 * Math.PI;
    const rr = r * (1 + 0.15 * Math.sin(a * 7));
    return [cx + rr * Math.cos(a), cy + rr * Math.sin(a)];
  });

describe('thinOutline', () => {
  it('keeps every vertex when they are farther apart than the step', () => {
    const o = blob(200);
    expect(thinOutline(o, 0.5)).toHaveLength(400);
  });

  it('keeps a few vertices of an outline a few screen pixels wide', () => {
    const o = blob(200);
    // Scale 1/64: the blob's ~1,000-pixel perimeter is ~16 screen pixels long.
    const thin = thinOutline(o, stepOfLevel(levelOf(1 / 64)));
    expect(thin.length / 2).toBeLessThanOrEqual(25);
    expect(thin.length / 2).toBeGreaterThanOrEqual(3);
    expect([thin[0], thin[1]]).toEqual([...o[0]]);
  });

  it('keeps every kept vertex at least the step from the previous one and on the outline', () => {
    const o = blob(180);
    const step = 20;
    const thin = thinOutline(o, step);
    for (let i = 2; i < thin.length; i += 2)
      expect(Math.hypot(thin[i] - thin[i - 2], thin[i + 1] - thin[i - 1])).toBeGreaterThanOrEqual(step);
    const all = new Set(o.map(([x, y]) => `${x},${y}`));
    for (let i = 0; i < thin.length; i += 2) expect(all.has(`${thin[i]},${thin[i + 1]}`)).toBe(true);
  });

  it('spaces kept vertices 0.75 to 1.5 screen pixels at most, whatever the scale in a level', () => {
    for (const scale of [1 / 32, 0.3, 1, 1.9, 4]) {
      const step = stepOfLevel(levelOf(scale));
      expect(step * scale).toBeGreaterThanOrEqual(0.75 - 1e-9);
      expect(step * scale).toBeLessThanOrEqual(1.5 + 1e-9);
    }
  });
});

describe('LevelCache', () => {
  it('computes each level once and shares it between scales of one level', () => {
    const cache = new LevelCache(blob(200));
    const a = cache.at(1 / 10);
    expect(cache.at(1 / 12)).toBe(a);
    expect(cache.at(1)).not.toBe(a);
    expect(cache.at(1).length).toBeGreaterThan(a.length);
  });
});

describe('hit geometry', () => {
  const square: Point[] = [
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
  ];
  it('tells inside from outside', () => {
    expect(insideOutline(square, 5, 5)).toBe(true);
    expect(insideOutline(square, 15, 5)).toBe(false);
    expect(insideOutline(square, -1, -1)).toBe(false);
  });
  it('measures the distance to the nearest edge, the closing one included', () => {
    expect(distanceToOutline(square, 5, -3)).toBeCloseTo(3);
    expect(distanceToOutline(square, -2, 5)).toBeCloseTo(2);
    expect(distanceToOutline(square, 5, 5)).toBeCloseTo(5);
  });
});
