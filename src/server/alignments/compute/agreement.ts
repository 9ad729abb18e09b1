// How well two tissues agree once placed: the share of their masks that overlaps, and the correlation of
// their inner structure (the signal less its local mean) where both have tissue. Outlines alone match
// loosely between any two pieces of tissue of a similar size; the inner structure matches only between
// the same tissue (a copy, or the next section of the same block), so it tells a match from none.
import { rotation, sample, type GreyImage } from './image';
import { boxBlur, type Tissue } from './mask';
import type { Placement } from './search';

export interface Agreement {
  /** Overlap of the two masks over their mean area (Dice), within the field both images cover, 0..1. */
  overlap: number;
  /** Pearson correlation of the detail signals where both masks are on, −1..1. */
  structure: number;
}

/** Working pixels: the box whose mean is taken off (about 60 µm on a 512-pixel picture of a slide). */
const DETAIL_RADIUS = 3;

/** The signal less its mean over a (2r+1)² box: the structure inside the tissue, not its outline. */
function detail(img: GreyImage, r: number): GreyImage {
  const blurred = boxBlur(img, r);
  const out = { ...img, data: new Float32Array(img.data.length) };
  for (let i = 0; i < out.data.length; i++) out.data[i] = img.data[i] - blurred.data[i];
  return out;
}

export function agreement(ref: Tissue, tgt: Tissue, found: Placement): Agreement {
  const [a, b, c, d] = rotation(found.degrees, found.mirrored);
  const det = a * d - b * c;
  const refDetail = detail(ref.signal, DETAIL_RADIUS);
  const tgtDetail = detail(tgt.signal, DETAIL_RADIUS);
  const { width: w, height: h } = ref.signal;
  let both = 0;
  let refOn = 0;
  let tgtOn = 0;
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      // Reference point → target point: w_t = M⁻¹(w_r − shift − m_r) + m_t.
      const qx = i + 0.5 - found.shift[0] - ref.centre[0];
      const qy = j + 0.5 - found.shift[1] - ref.centre[1];
      const tx = (d * qx - b * qy) / det + tgt.centre[0];
      const ty = (-c * qx + a * qy) / det + tgt.centre[1];
      // Only where the target image has pixels: tissue beyond its edge is not missing, just not scanned.
      if (tx < 0 || ty < 0 || tx >= tgt.signal.width || ty >= tgt.signal.height) continue;
      const onRef = ref.signal.data[j * w + i] > 0;
      const onTgt = sample(tgt.signal, tx, ty) > 0;
      if (onRef) refOn++;
      if (onTgt) tgtOn++;
      if (!onRef || !onTgt) continue;
      both++;
      const x = refDetail.data[j * w + i];
      const y = sample(tgtDetail, tx, ty);
      n++;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
    }
  const overlap = (2 * both) / (refOn + tgtOn || 1);
  const cov = sxy - (sx * sy) / (n || 1);
  const vx = sxx - (sx * sx) / (n || 1);
  const vy = syy - (sy * sy) / (n || 1);
  const structure = vx > 0 && vy > 0 ? cov / Math.sqrt(vx * vy) : 0;
  return { overlap, structure };
}
