// Deep Zoom (DZI) geometry. DZI counts levels the other way from our readers: DZI level 0 is 1×1 and
// the highest level (maxLevel) is full resolution (STYLE §3: the conversion lives only here).

export const TILE_SIZE = 254;
export const OVERLAP = 1;

export interface DziLevel {
  /** DZI level number: 0 = 1×1 … maxLevel = full size */
  level: number;
  width: number;
  height: number;
  /** Level-0 (full resolution) pixels per pixel of this level: a power of two. */
  downsample: number;
  cols: number;
  rows: number;
}

export function dziLevels(width: number, height: number, tileSize = TILE_SIZE): DziLevel[] {
  const maxLevel = Math.ceil(Math.log2(Math.max(width, height, 1)));
  const out: DziLevel[] = [];
  for (let level = maxLevel; level >= 0; level--) {
    const downsample = 2 ** (maxLevel - level);
    const w = Math.max(1, Math.ceil(width / downsample));
    const h = Math.max(1, Math.ceil(height / downsample));
    out.push({
      level,
      width: w,
      height: h,
      downsample,
      cols: Math.ceil(w / tileSize),
      rows: Math.ceil(h / tileSize),
    });
  }
  return out;
}

/** The pixel rectangle (in the level's pixels) of tile (col,row), overlap included, clipped to the level. */
export function tileRect(l: DziLevel, col: number, row: number, tileSize = TILE_SIZE, overlap = OVERLAP) {
  const x = Math.max(0, col * tileSize - overlap);
  const y = Math.max(0, row * tileSize - overlap);
  const x2 = Math.min(l.width, (col + 1) * tileSize + overlap);
  const y2 = Math.min(l.height, (row + 1) * tileSize + overlap);
  return { x, y, w: x2 - x, h: y2 - y };
}

export function dziXml(
  width: number,
  height: number,
  format = 'jpeg',
  tileSize = TILE_SIZE,
  overlap = OVERLAP,
): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="${format}" Overlap="${overlap}" TileSize="${tileSize}">` +
    `<Size Width="${width}" Height="${height}"/></Image>\n`
  );
}
