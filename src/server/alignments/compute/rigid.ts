// A rigid alignment from two low-resolution pictures of whole slides (their thumbnails): both are put on
// one working grid of equal physical pixel size, their tissue is masked (mask.ts), the placement is
// searched coarse to fine (search.ts), and the result is written as the level-0 matrix the API stores.
import type { AlignmentFailureReason, RigidAlignmentOutput } from '../../../api/alignments';
import { rotation, shrink, type GreyImage, type RgbImage } from './image';
import { guessKind, tissueness, tissueOf, tissueThreshold, type SlideKind, type Tissue } from './mask';
import { searchPlacement } from './search';
import { agreement } from './agreement';

export interface AlignSource {
  /** The whole slide, small (a thumbnail): its width and height span the level-0 image. */
  picture: RgbImage;
  /** Level-0 size in pixels. */
  width: number;
  height: number;
  /** Micrometres per level-0 pixel, when known. */
  pixelSizeUm?: number;
  /** How tissue shows (mask.ts); judged from the picture's border when not given. */
  kind?: SlideKind;
}

export class AlignmentFailure extends Error {
  constructor(readonly reason: AlignmentFailureReason) {
    super(reason);
  }
}

/**
 * A placement is a match when at least half the tissue in view overlaps and the inner structure
 * correlates (measured: turned copies 0.71–0.98, generated serial sections 0.24–0.33, unrelated
 * generated tissue ≤ 0.05; docs/decisions.md).
 */
export const MIN_OVERLAP = 0.5;
export const MIN_STRUCTURE = 0.1;
/** The working grid's longest side: a thumbnail's (512), where a pixel is 0.2 % of the slide. */
const MAX_SIDE = 512;
/** Fewer tissue pixels than this on the working grid is no tissue (dust, a label edge). */
const MIN_TISSUE_PIXELS = 50;

/** Working grid: the physical pixel of the coarser picture, and no side above MAX_SIDE. */
function workingGrid(ref: AlignSource, tgt: AlignSource) {
  const known = ref.pixelSizeUm && tgt.pixelSizeUm;
  const um = (s: AlignSource) => (known ? s.pixelSizeUm! : 1);
  // Micrometres (or level-0 pixels) per picture pixel, per axis.
  const per = (s: AlignSource) => [
    (um(s) * s.width) / s.picture.width,
    (um(s) * s.height) / s.picture.height,
  ];
  const physicalSide = (s: AlignSource) => um(s) * Math.max(s.width, s.height);
  const unit = Math.max(...per(ref), ...per(tgt), physicalSide(ref) / MAX_SIDE, physicalSide(tgt) / MAX_SIDE);
  /** Level-0 pixels per working pixel, for each image. */
  return { unit, levelZero: (s: AlignSource) => unit / um(s), per };
}

/** The picture's tissue-ness on the working grid. */
function tissuenessOn(s: AlignSource, kind: SlideKind, grid: ReturnType<typeof workingGrid>): GreyImage {
  const [px, py] = grid.per(s);
  const fx = grid.unit / px;
  const fy = grid.unit / py;
  const width = Math.max(1, Math.floor(s.picture.width / fx));
  const height = Math.max(1, Math.floor(s.picture.height / fy));
  return shrink(tissueness(s.picture, kind), fx, fy, width, height);
}

/** Both tissues, masked alike when both images are of one kind. */
function tissues(
  reference: AlignSource,
  target: AlignSource,
  grid: ReturnType<typeof workingGrid>,
): [Tissue, Tissue] {
  const refKind = reference.kind ?? guessKind(reference.picture);
  const tgtKind = target.kind ?? guessKind(target.picture);
  const refNess = tissuenessOn(reference, refKind, grid);
  const tgtNess = tissuenessOn(target, tgtKind, grid);
  const common = refKind === tgtKind ? tissueThreshold(refNess, tgtNess) : undefined;
  const ref = tissueOf(refNess, common);
  if (ref.distinct < MIN_TISSUE_PIXELS) throw new AlignmentFailure('noTissueReference');
  const tgt = tissueOf(tgtNess, common);
  if (tgt.distinct < MIN_TISSUE_PIXELS) throw new AlignmentFailure('noTissueTarget');
  return [ref, tgt];
}

/** The placement of `target` on `reference`, or an AlignmentFailure saying why there is none. */
export async function alignRigid(
  reference: AlignSource,
  target: AlignSource,
  signal?: AbortSignal,
): Promise<RigidAlignmentOutput> {
  const grid = workingGrid(reference, target);
  const [ref, tgt] = tissues(reference, target, grid);
  const found = await searchPlacement(ref, tgt, signal);
  const agreed = agreement(ref, tgt, found);
  if (agreed.overlap < MIN_OVERLAP || agreed.structure < MIN_STRUCTURE) throw new AlignmentFailure('noMatch');

  // Working → level 0: P = f·w (continuous). Reference P_r = f_r·(M(P_t/f_t − m_t) + shift + m_r).
  const fr = grid.levelZero(reference);
  const ft = grid.levelZero(target);
  const [m0, m1, m2, m3] = rotation(found.degrees, found.mirrored);
  const k = fr / ft;
  const [a, b, c, d] = [k * m0, k * m1, k * m2, k * m3];
  const [tcx, tcy] = tgt.centre;
  const [rcx, rcy] = ref.centre;
  let tx = fr * (found.shift[0] + rcx - (m0 * tcx + m1 * tcy));
  let ty = fr * (found.shift[1] + rcy - (m2 * tcx + m3 * tcy));
  // Continuous coordinates put pixel (x, y)'s centre at (x + ½, y + ½); the API counts pixels.
  tx += 0.5 * (a + b) - 0.5;
  ty += 0.5 * (c + d) - 0.5;
  const round = (v: number, digits: number) => Number(v.toFixed(digits));
  const matrix: RigidAlignmentOutput['matrix'] = [
    [round(a, 8), round(b, 8), round(tx, 3)],
    [round(c, 8), round(d, 8), round(ty, 3)],
  ];
  return {
    matrix,
    rotationDegrees: round(found.degrees, 3),
    mirrored: found.mirrored,
    translation: { x: matrix[0][2], y: matrix[1][2] },
    score: round(found.score, 4),
  };
}
