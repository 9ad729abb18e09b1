// The level-0 size of a processed image, read from the layers.json its pyramid was written with, so a
// GeoJSON import can refuse positions outside the image (processing/derived.ts finds it: the pyramid
// pack, or an older install's tiles folder). An image without one (not processed yet, or unreadable) has no known size, and positions are then not checked against it.
import type { ImageBounds } from '../../api/annotation-geojson';
import type { LayersManifest } from '../../api/tiles';
import { readDerived } from '../processing/derived';

export async function imageBounds(dataDir: string, imageId: string): Promise<ImageBounds | undefined> {
  const text = (await readDerived(dataDir, imageId, 'layers.json').catch(() => undefined))?.toString('utf8');
  if (!text) return undefined;
  try {
    const manifest = JSON.parse(text) as Partial<LayersManifest>;
    const { width, height } = manifest;
    return typeof width === 'number' && typeof height === 'number' && width > 0 && height > 0
      ? { width, height }
      : undefined;
  } catch {
    return undefined;
  }
}
