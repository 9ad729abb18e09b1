// Where the image is on screen (image pixels → the viewer element's CSS pixels), followed on every
// frame the viewer draws without React state: a pan or zoom moves the layers through this feed (a
// canvas redrawn or moved, an SVG transform set), so it re-renders no component. A component that
// must render in screen pixels reads it with useSyncExternalStore and so re-renders only while mounted.
import { useEffect, useState, useSyncExternalStore } from 'react';
import type OpenSeadragon from 'openseadragon';

/** Image pixels → the viewer element's CSS pixels: one scale and an offset (the viewer never rotates). */
export interface Mapping {
  x: number;
  y: number;
  scale: number;
}

type Osd = typeof OpenSeadragon;

export function mappingOf(osd: Osd, viewer: OpenSeadragon.Viewer): Mapping | undefined {
  const item = viewer.world.getItemAt(0);
  if (!item) return undefined;
  const origin = item.imageToViewerElementCoordinates(new osd.Point(0, 0));
  const far = item.imageToViewerElementCoordinates(new osd.Point(10_000, 0));
  return { x: origin.x, y: origin.y, scale: (far.x - origin.x) / 10_000 };
}

/** The latest mapping and the listeners told when it changes. */
export class MappingFeed {
  private value: Mapping | undefined;
  private readonly listeners = new Set<() => void>();

  readonly get = (): Mapping | undefined => this.value;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(next: Mapping | undefined): void {
    const v = this.value;
    if (v === next || (v && next && v.x === next.x && v.y === next.y && v.scale === next.scale)) return;
    this.value = next;
    for (const listener of [...this.listeners]) listener();
  }
}

/** The viewer's events after which the image may have moved on screen. */
const MOVED = ['update-viewport', 'resize', 'open'] as const;

/** A feed that follows `viewer` (undefined until both it and OpenSeadragon are loaded). */
export function useMappingFeed(viewer: OpenSeadragon.Viewer | undefined, osd: Osd | undefined): MappingFeed {
  const [feed] = useState(() => new MappingFeed());
  useEffect(() => {
    if (!viewer || !osd) return feed.set(undefined);
    const update = () => feed.set(mappingOf(osd, viewer));
    MOVED.forEach((e) => viewer.addHandler(e, update));
    viewer.world.addHandler('add-item', update);
    update();
    return () => {
      MOVED.forEach((e) => viewer.removeHandler(e, update));
      viewer.world.removeHandler('add-item', update);
      feed.set(undefined);
    };
  }, [viewer, osd, feed]);
  return feed;
}

/** The mapping as React state: re-renders the caller on every frame of a pan or zoom while mounted. */
export const useMapping = (feed: MappingFeed): Mapping | undefined =>
  useSyncExternalStore(feed.subscribe, feed.get);

/** Whether the image is placed yet: re-renders the caller only when that flips. */
export const useHasMapping = (feed: MappingFeed): boolean =>
  useSyncExternalStore(feed.subscribe, () => feed.get() !== undefined);
