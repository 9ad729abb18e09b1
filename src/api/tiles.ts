// layers.json of a processed image (served at /v2/images/:id/tiles/layers.json): what the viewer needs
// beside the .dzi files — kind, size, pixel size, and the layers with their colours and display ranges.
import { errorText } from './errors';

export interface LayersManifest {
  kind: 'brightfield' | 'fluorescence';
  width: number;
  height: number;
  pixelSizeUm?: { x: number; y: number };
  layers: Array<{ name: string; label: string; color: string; range?: { min: number; max: number } }>;
}

export const tilesPath = (imageId: string, file: string) => `/v2/images/${imageId}/tiles/${file}`;

/** What a tile request answers when the tile cannot be served (the viewer shows a gap). */
export const TileText = {
  unreadable: errorText('TILE_UNREADABLE'),
  notReady: errorText('TILE_NOT_READY'),
} as const;
