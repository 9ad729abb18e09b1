// Aligned viewing's arithmetic: a rigid alignment's matrix, its inverse, and the follower's view put
// every pixel of the target on screen where the reference pixel it lies on is drawn.
import { describe, expect, it } from 'vitest';
import {
  applyAffine,
  decomposeAffine,
  followView,
  invertAffine,
  normalizeDegrees,
  screenOf,
  type Affine,
  type Pt,
  type View,
} from '../../../src/app/viewer/aligned/aligned-transform';

/** The server's matrix for a target flipped (when mirrored), then turned clockwise, scaled, moved. */
function rigid(degrees: number, mirrored: boolean, tx: number, ty: number, scale = 1): Affine {
  const r = (degrees * Math.PI) / 180;
  const f = mirrored ? -1 : 1;
  return [
    [scale * Math.cos(r) * f, -scale * Math.sin(r), tx],
    [scale * Math.sin(r) * f, scale * Math.cos(r), ty],
  ];
}

const SAMPLES: Pt[] = [
  [0, 0],
  [1200, 0],
  [0, 900],
  [5321.5, 2710.25],
  [-40, 77],
];

const close = (a: readonly number[], b: readonly number[]) =>
  a.forEach((v, i) => expect(v).toBeCloseTo(b[i], 6));

describe('the alignment matrix', () => {
  it.each([
    [0, false],
    [90, false],
    [37, false],
    [-120, false],
    [0, true],
    [90, true],
    [37, true],
    [180, true],
  ])('decomposes a rotation of %s° (mirrored %s)', (degrees, mirrored) => {
    const d = decomposeAffine(rigid(degrees, mirrored, 10, 20, 0.5));
    expect(d.mirrored).toBe(mirrored);
    expect(normalizeDegrees(d.rotation - degrees)).toBeCloseTo(0, 9);
    expect(d.scale).toBeCloseTo(0.5, 9);
  });

  it('turns a pixel clockwise on screen for a positive angle (y down)', () => {
    // 90° clockwise: the target's right (+x) lies downwards (+y) on the reference.
    close(applyAffine(rigid(90, false, 0, 0), [10, 0]), [0, 10]);
    // Mirrored, no turn: left and right swap.
    close(applyAffine(rigid(0, true, 1000, 0), [10, 5]), [990, 5]);
  });

  it('moves by the translation', () => {
    close(applyAffine(rigid(0, false, 300, -50), [10, 20]), [310, -30]);
  });

  it.each([
    [0, false, 0, 0, 1],
    [90, false, 500, 20, 1],
    [37, false, -120.5, 33, 0.8],
    [37, true, 900, 1400, 1.25],
    [-90, true, 10, 10, 1],
  ])('round-trips target → reference → target (%s°, mirrored %s)', (degrees, mirrored, tx, ty, scale) => {
    const m = rigid(degrees, mirrored, tx, ty, scale);
    const inv = invertAffine(m);
    for (const p of SAMPLES) close(applyAffine(inv, applyAffine(m, p)), p);
    for (const p of SAMPLES) close(applyAffine(m, applyAffine(inv, p)), p);
  });

  it('refuses a matrix that flattens the image', () => {
    expect(() =>
      invertAffine([
        [1, 2, 0],
        [2, 4, 0],
      ]),
    ).toThrow();
  });
});

describe('locked navigation', () => {
  const leaders: View[] = [
    { center: [4000, 3000], scale: 0.25, rotation: 0, flipped: false },
    { center: [120, 80], scale: 2, rotation: 90, flipped: false },
    { center: [2500, 2500], scale: 0.05, rotation: -30, flipped: true },
  ];
  const matrices: [string, Affine][] = [
    ['identity', rigid(0, false, 0, 0)],
    ['translation', rigid(0, false, 350, -75)],
    ['90°', rigid(90, false, 3000, 0)],
    ['37°', rigid(37, false, 100, 200, 1.1)],
    ['mirrored', rigid(0, true, 6000, 0)],
    ['mirrored and 37°', rigid(37, true, 6000, 150, 0.9)],
  ];

  for (const [name, toReference] of matrices)
    it(`draws each target pixel where its reference pixel is (${name}), either way round`, () => {
      const toTarget = invertAffine(toReference);
      for (const leader of leaders) {
        // The reference leads: the target follows through the matrix.
        const target = followView(leader, toReference);
        for (const p of SAMPLES) close(screenOf(target, p), screenOf(leader, applyAffine(toReference, p)));
        // The target leads: the reference follows through the inverse.
        const reference = followView(leader, toTarget);
        for (const p of SAMPLES) close(screenOf(reference, p), screenOf(leader, applyAffine(toTarget, p)));
      }
    });

  it('centres the target on the reference centre’s pixel and scales by the pixel-size ratio', () => {
    const m = rigid(0, false, 100, 200, 2);
    const v = followView({ center: [300, 400], scale: 1, rotation: 0, flipped: false }, m);
    close(v.center, [100, 100]);
    expect(v.scale).toBeCloseTo(2, 9);
    expect(v.rotation).toBeCloseTo(0, 9);
    expect(v.flipped).toBe(false);
  });

  it('turns and flips the follower as the alignment says', () => {
    const still: View = { center: [0, 0], scale: 1, rotation: 0, flipped: false };
    expect(followView(still, rigid(37, false, 0, 0)).rotation).toBeCloseTo(37, 9);
    const mirrored = followView(still, rigid(37, true, 0, 0));
    expect(mirrored.flipped).toBe(true);
    // OpenSeadragon flips after it turns: the same tissue shows with the angle negated.
    expect(mirrored.rotation).toBeCloseTo(-37, 9);
    // Following back through the inverse returns to the leader's own view.
    const back = followView(
      followView(leaders[2], rigid(37, true, 5, 6)),
      invertAffine(rigid(37, true, 5, 6)),
    );
    close(back.center, leaders[2].center);
    expect(normalizeDegrees(back.rotation - leaders[2].rotation)).toBeCloseTo(0, 9);
    expect(back.flipped).toBe(leaders[2].flipped);
    expect(back.scale).toBeCloseTo(leaders[2].scale, 9);
  });
});
