// The generated pairs the rigid aligner's tests share (synthetic.ts): one reference slide, and a check
// that a target drawn through a known placement is recovered within 0.5 % of the slide's size.
import { expect } from 'vitest';
import { alignRigid, type AlignSource } from '../../../src/server/alignments/compute/rigid';
import { apply, cornerError, picture, rigid, tissueField, type Matrix } from './synthetic';

/** The target within 0.5 % of the slide's size (issue's accuracy target). */
export const TOLERANCE = 0.005;

export const REFERENCE = { width: 4000, height: 3000 };
export const referenceField = tissueField({ seed: 7, centre: [2100, 1400], size: 2200 });
export const reference: AlignSource = { ...REFERENCE, picture: picture(referenceField, REFERENCE, 512) };

export interface Case {
  name: string;
  degrees: number;
  mirrored: boolean;
  /** The target slide's level-0 size, and where the tissue's middle lies on it. */
  target: { width: number; height: number };
  at: [number, number];
  serial?: boolean;
  /** The target's thumbnail width (its long side is 512 in the app). */
  pictureWidth?: number;
}

/** The target→reference truth that puts the target's `at` on the reference tissue's middle. */
function truthOf(c: Case): Matrix {
  const m = rigid(c.degrees, c.mirrored, 0, 0);
  const [x, y] = apply(m, c.at[0], c.at[1]);
  return rigid(c.degrees, c.mirrored, 2100 - x, 1400 - y);
}

/** Draws the case's target, aligns it and checks the result against the truth. */
export async function expectRecovered(c: Case): Promise<void> {
  const truth = truthOf(c);
  const field = c.serial
    ? tissueField({ seed: 7, centre: [2100, 1400], size: 2200, serial: true })
    : referenceField;
  const wide = c.target.width >= c.target.height;
  const width = c.pictureWidth ?? (wide ? 512 : Math.round((512 * c.target.width) / c.target.height));
  const target: AlignSource = { ...c.target, picture: picture(field, c.target, width, truth) };
  const started = performance.now();
  const found = await alignRigid(reference, target);
  const ms = performance.now() - started;
  const error = cornerError(truth, found.matrix, c.target, REFERENCE);
  console.info(`${c.name}: error ${(error * 100).toFixed(3)} % in ${ms.toFixed(0)} ms, score ${found.score}`);
  expect(error).toBeLessThan(TOLERANCE);
  expect(found.mirrored).toBe(c.mirrored);
  const angle = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;
  expect(Math.abs(angle(found.rotationDegrees - c.degrees))).toBeLessThan(0.5);
  expect(found.translation).toEqual({ x: found.matrix[0][2], y: found.matrix[1][2] });
  expect(found.score).toBeGreaterThan(0.5);
}
