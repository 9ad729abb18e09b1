// The deep-zoom canvas: OpenSeadragon (loaded on demand, so other pages stay light) showing an image's
// DZI layers — one RGB layer for brightfield, or one grey layer per fluorescence channel tinted with its
// colour and added together. Viewer options and channel windows are applied to each tile as it is
// drawn (OpenSeadragon 6's tile-invalidated pipeline) and re-applied when they change.
import { useEffect, useRef, useState } from 'react';
import { Box, Paper, Text } from '@mantine/core';
import type OpenSeadragon from 'openseadragon';
import { adjustRgba, buildLut, colorizeRgba, type ChannelDisplay, type ViewerOptions } from './adjust';
import { Misc } from '../../api/messages';
import type { LayersManifest } from '../../api/tiles';
import { ScaleBar } from './ScaleBar';
import { useTilesNotReady } from './tiles-not-ready';

export interface SlideViewerProps {
  imageId: string;
  manifest: LayersManifest;
  options: ViewerOptions;
  channels: ChannelDisplay[];
  onViewer?(viewer: OpenSeadragon.Viewer | undefined): void;
  /** No background and no navigator: a viewer laid over another (aligned viewing's overlay). */
  layered?: boolean;
  /** Without its scale bar: the overlay's upper viewer, whose bar would cover the lower one's. */
  scaleBar?: boolean;
}

/** A navigator item's link to the main viewer's item it mirrors (OpenSeadragon 6's Navigator sets it). */
type NavigatorItem = OpenSeadragon.TiledImage & { _originalForNavigator?: OpenSeadragon.TiledImage };

export function SlideViewer({
  imageId,
  manifest,
  options,
  channels,
  onViewer,
  layered = false,
  scaleBar = true,
}: SlideViewerProps) {
  const host = useRef<HTMLDivElement>(null);
  const [viewer, setViewer] = useState<OpenSeadragon.Viewer>();
  // The tile handler reads the latest settings through a ref: no viewer rebuild on every slider move.
  const settings = useRef({ options, channels });
  settings.current = { options, channels };
  const fluorescence = manifest.kind === 'fluorescence';

  useEffect(() => {
    let created: OpenSeadragon.Viewer | undefined;
    let cancelled = false;
    void import('openseadragon').then(({ default: OSD }) => {
      if (cancelled || !host.current) return;
      created = OSD({
        element: host.current,
        showNavigator: !layered,
        navigatorPosition: 'BOTTOM_RIGHT',
        showNavigationControl: false,
        drawer: 'canvas',
        visibilityRatio: 0.5,
        maxZoomPixelRatio: 4,
        animationTime: 0.6,
        gestureSettingsTouch: { pinchRotate: false },
        crossOriginPolicy: false,
        // A low-resolution tile of a slide still being processed answers 503 until its pyramid is
        // written (docs/formats.md "Viewable at once"): useTilesNotReady asks again, not OpenSeadragon.
        tileRetryMax: 0,
      });
      manifest.layers.forEach((layer, index) =>
        created!.addTiledImage({
          tileSource: `/v2/images/${imageId}/tiles/${layer.name}.dzi`,
          index,
          compositeOperation: fluorescence && index > 0 ? 'lighter' : undefined,
        }),
      );
      created.addHandler('tile-invalidated', async (event) => {
        const ctx = (await event.getData('context2d')) as CanvasRenderingContext2D;
        if (await event.outdated()) return;
        const { options: o, channels: ch } = settings.current;
        const { width, height } = ctx.canvas;
        const pixels = ctx.getImageData(0, 0, width, height);
        if (fluorescence) {
          // The navigator's tiles come here too (OpenSeadragon raises their event on the main viewer),
          // as items of the navigator's world, each linked to the main item it mirrors.
          const item = (event.tiledImage as NavigatorItem)._originalForNavigator ?? event.tiledImage;
          const index = created!.world.getIndexOfItem(item);
          const c = ch[index];
          if (!c) return;
          colorizeRgba(pixels.data, buildLut(o, c), c.color);
        } else {
          adjustRgba(pixels.data, buildLut(o), o.saturation);
        }
        ctx.putImageData(pixels, 0, 0);
        await event.setData(ctx, 'context2d');
      });
      setViewer(created);
      onViewer?.(created);
    });
    return () => {
      cancelled = true;
      onViewer?.(undefined);
      created?.destroy();
      setViewer(undefined);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rebuilt only when the image changes
  }, [imageId, manifest, layered]);

  const notReady = useTilesNotReady(layered ? undefined : viewer);

  useEffect(() => {
    if (!viewer) return;
    channels.forEach((c, i) => viewer.world.getItemAt(i)?.setOpacity(fluorescence && !c.visible ? 0 : 1));
    void viewer.requestInvalidate();
  }, [viewer, options, channels, fluorescence]);

  return (
    <Box
      pos="relative"
      h="100%"
      w="100%"
      bg={layered ? undefined : fluorescence ? 'black' : 'white'}
      style={{ touchAction: 'none' }}
    >
      <div ref={host} style={{ position: 'absolute', inset: 0 }} data-testid="slide-viewer" />
      {viewer && manifest.pixelSizeUm && scaleBar && (
        <ScaleBar viewer={viewer} umPerPixel={manifest.pixelSizeUm.x} dark={fluorescence} />
      )}
      {notReady && (
        <Paper
          role="status"
          data-testid="tiles-not-ready"
          withBorder
          shadow="sm"
          p="xs"
          w="min(420px, 50%)"
          // Between the scale bar and the navigator, and never in the way of a drag or a pinch.
          style={{
            position: 'absolute',
            bottom: 16,
            left: '50%',
            transform: 'translateX(-50%)',
            zIndex: 2,
            pointerEvents: 'none',
          }}
        >
          <Text size="sm">{Misc.tilesNotReady}</Text>
        </Paper>
      )}
    </Box>
  );
}
