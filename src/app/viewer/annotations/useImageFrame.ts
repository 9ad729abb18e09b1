// What measuring and importing need to know of an image: its pixel size (µm per level-0 pixel) and its
// level-0 size, both from the image's layers.json, through the viewer's own query, so the file is read
// once for the canvas and the annotations (and, once seen, it is there offline too).
import { useMemo } from 'react';
import type { ImageBounds } from '../../../api/annotation-geojson';
import { pixelSizeOf, type PixelSize } from '../../../api/annotation-measurements';
import { useLayersManifest } from '../useLayersManifest';

export interface ImageFrame {
  /** Undefined when the image does not say (or its layers.json cannot be read): measure in pixels. */
  pixelSize?: PixelSize;
  bounds?: ImageBounds;
}

export function useImageFrame(imageId: string): ImageFrame {
  const manifest = useLayersManifest(imageId);
  const data = manifest.data;
  return useMemo(
    () => ({
      pixelSize: pixelSizeOf(data?.pixelSizeUm),
      bounds:
        data && data.width > 0 && data.height > 0 ? { width: data.width, height: data.height } : undefined,
    }),
    [data],
  );
}
