// The arithmetic of aligned viewing, kept free of OpenSeadragon so it can be tested on its own: a rigid
// alignment's matrix (a target level-0 pixel → the reference's), its inverse, and how one viewer's view
// (centre, scale, rotation, flip) becomes the other's so both show the same tissue at the same place.
//
// A view maps an image pixel p to the screen as OpenSeadragon's canvas drawer does:
//   screen = screenCentre + scale · Flip^flipped · Rot(rotation) · (p − centre)
// (the drawer flips the whole canvas, then rotates; y points down, so a positive angle turns clockwise).

/** [[a, b, tx], [c, d, ty]]: (x, y) → (a·x + b·y + tx, c·x + d·y + ty). */
export type Affine = readonly [readonly [number, number, number], readonly [number, number, number]];
export type Pt = readonly [number, number];

export const IDENTITY: Affine = [
  [1, 0, 0],
  [0, 1, 0],
];

export function applyAffine(m: Affine, [x, y]: Pt): [number, number] {
  return [m[0][0] * x + m[0][1] * y + m[0][2], m[1][0] * x + m[1][1] * y + m[1][2]];
}

export function invertAffine(m: Affine): Affine {
  const [[a, b, tx], [c, d, ty]] = m;
  const det = a * d - b * c;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12)
    throw new Error('The alignment matrix cannot be inverted');
  const ia = d / det;
  const ib = -b / det;
  const ic = -c / det;
  const id = a / det;
  return [
    [ia, ib, -(ia * tx + ib * ty)],
    [ic, id, -(ic * tx + id * ty)],
  ];
}

/**
 * The matrix's linear part as s · Rot(rotation) · Flip^mirrored (the flip, left to right, applied
 * first), as the server describes a rigid alignment. A shear, which a rigid alignment has none of, is
 * ignored: the scale is the square root of the determinant's size.
 */
export function decomposeAffine(m: Affine): { scale: number; rotation: number; mirrored: boolean } {
  const [[a], [c]] = m;
  const det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
  const mirrored = det < 0;
  // With the flip undone (the first column negated), the first column is s · (cos θ, sin θ).
  const rotation = mirrored ? Math.atan2(-c, -a) : Math.atan2(c, a);
  return {
    scale: Math.sqrt(Math.abs(det)),
    rotation: normalizeDegrees((rotation * 180) / Math.PI),
    mirrored,
  };
}

/** −180 < degrees ≤ 180. */
export function normalizeDegrees(degrees: number): number {
  const d = ((((degrees + 180) % 360) + 360) % 360) - 180;
  return d === -180 ? 180 : d;
}

/** What a viewer shows, in its own image's level-0 pixels. */
export interface View {
  /** The image pixel at the centre of the viewer. */
  center: Pt;
  /** Screen pixels per image pixel. */
  scale: number;
  /** OpenSeadragon's viewport rotation, degrees. */
  rotation: number;
  /** OpenSeadragon's viewport flip. */
  flipped: boolean;
}

/**
 * The view of the follower that shows what the leader shows: `followerToLeader` maps a follower pixel
 * to the leader's pixel on the same tissue (the alignment matrix when the follower is the target, its
 * inverse when the follower is the reference).
 */
export function followView(leader: View, followerToLeader: Affine): View {
  const { scale, rotation, mirrored } = decomposeAffine(followerToLeader);
  // Flip^f · Rot(φ) · Rot(α) · Flip^m: a trailing flip moves to the front by negating the angle
  // (Rot(β) · Flip = Flip · Rot(−β)).
  const turned = leader.rotation + rotation;
  return {
    center: applyAffine(invertAffine(followerToLeader), leader.center),
    scale: leader.scale * scale,
    rotation: normalizeDegrees(mirrored ? -turned : turned),
    flipped: leader.flipped !== mirrored,
  };
}

/** Where a view draws an image pixel, relative to the viewer's centre (for tests and checks). */
export function screenOf(view: View, p: Pt): [number, number] {
  const r = (view.rotation * Math.PI) / 180;
  const dx = (p[0] - view.center[0]) * view.scale;
  const dy = (p[1] - view.center[1]) * view.scale;
  const x = Math.cos(r) * dx - Math.sin(r) * dy;
  const y = Math.sin(r) * dx + Math.cos(r) * dy;
  return [view.flipped ? -x : x, y];
}
