// CZI metadata XML → pixel size, channel names and colours, a few properties.
// Quirks: scaling is in metres per pixel (Scaling/Items/Distance Id="X"/Value), 0 when unknown; channels
// appear twice (Information/Image/Dimensions/Channels and DisplaySetting/Channels), either may lack
// Name or Color; colours are "#AARRGGBB".

import type { SlideChannel } from './types';
import { child, descendants, kids, parseXml, type XmlElement } from './xml';

export interface CziMetadata {
  pixelSizeUm?: { x: number; y: number };
  /** Per channel index; name or color undefined when the file does not say. */
  channels: { name?: string; color?: [number, number, number] }[];
  properties: Record<string, string>;
}

function parseColor(s: string | undefined): [number, number, number] | undefined {
  const m = /^#?([0-9a-fA-F]{2})?([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})$/.exec(s?.trim() ?? '');
  return m ? [parseInt(m[2], 16), parseInt(m[3], 16), parseInt(m[4], 16)] : undefined;
}

function channelList(root: XmlElement, ...path: string[]): XmlElement[] {
  return kids(child(root, ...path), 'Channel');
}

export function parseCziMetadata(xml: string): CziMetadata {
  const root = parseXml(xml); // <ImageDocument>
  const meta = child(root, 'Metadata');
  const properties: Record<string, string> = {};

  let pixelSizeUm: CziMetadata['pixelSizeUm'];
  const distances = kids(child(meta, 'Scaling', 'Items'), 'Distance');
  const metres = (id: string) => Number(distances.find((d) => d.attrs.Id === id)?.children[0]?.text ?? NaN);
  const [mx, my] = [metres('X'), metres('Y')];
  if (mx > 0 && my > 0) pixelSizeUm = { x: mx * 1e6, y: my * 1e6 };

  const info = channelList(meta ?? root, 'Information', 'Image', 'Dimensions', 'Channels');
  const display = channelList(meta ?? root, 'DisplaySetting', 'Channels');
  const n = Math.max(info.length, display.length);
  const channels: CziMetadata['channels'] = [];
  const text = (el: XmlElement | undefined, name: string) => child(el, name)?.text || undefined;
  for (let i = 0; i < n; i++) {
    const a = info[i];
    const b = display[i];
    channels.push({
      name: a?.attrs.Name || b?.attrs.Name || text(a, 'Fluor') || text(b, 'DyeName') || text(a, 'DyeName'),
      color: parseColor(text(a, 'Color') ?? text(b, 'Color')),
    });
  }

  const objective = descendants(meta, 'ObjectiveName')[0]?.text;
  if (objective) properties['objective'] = objective;
  const magnification = descendants(meta, 'NominalMagnification')[0]?.text;
  if (magnification) properties['objectivePower'] = magnification;
  const app = child(meta, 'Information', 'Application', 'Name')?.text;
  if (app) properties['software'] = app;
  return { pixelSizeUm, channels, properties };
}

/** Default colours for fluorescence channels the file leaves uncoloured (blue, green, red, ...). */
const FALLBACK: [number, number, number][] = [
  [0, 0, 255],
  [0, 255, 0],
  [255, 0, 0],
  [255, 0, 255],
  [0, 255, 255],
  [255, 255, 0],
];

/** Final channel list for the Slide: names 'C1'.. and fallback colours where the file has none. */
export function slideChannels(meta: CziMetadata, count: number, brightfield: boolean): SlideChannel[] {
  // One RGB channel, named alike for every format so the viewer need not know the vendor.
  if (brightfield) return [{ name: 'Brightfield', color: [255, 255, 255] }];
  return Array.from({ length: count }, (_, i) => ({
    name: meta.channels[i]?.name ?? `C${i + 1}`,
    color: meta.channels[i]?.color ?? FALLBACK[i % FALLBACK.length],
  }));
}
