// A scale bar in the viewer's corner: a round length (1, 2 or 5 × 10ⁿ µm) about 120 screen pixels long.
import { useEffect, useState } from 'react';
import { Box, Text } from '@mantine/core';
import type OpenSeadragon from 'openseadragon';
import { niceLength } from './adjust';

export function ScaleBar({
  viewer,
  umPerPixel,
  dark,
}: {
  viewer: OpenSeadragon.Viewer;
  umPerPixel: number;
  dark: boolean;
}) {
  const [bar, setBar] = useState<{ px: number; label: string }>();
  useEffect(() => {
    const update = () => {
      const item = viewer.world.getItemAt(0);
      if (!item) return;
      const screenPerImagePx = item.viewportToImageZoom(viewer.viewport.getZoom(true));
      const umPerScreenPx = umPerPixel / screenPerImagePx;
      const nice = niceLength(120 * umPerScreenPx);
      const px = nice.um / umPerScreenPx;
      // Called on every frame of a pan, where the bar stays as it is: no render then.
      setBar((b) => (b && b.px === px && b.label === nice.label ? b : { px, label: nice.label }));
    };
    viewer.addHandler('animation', update);
    viewer.addHandler('open', update);
    viewer.world.addHandler('add-item', update);
    update();
    return () => {
      viewer.removeHandler('animation', update);
      viewer.removeHandler('open', update);
      viewer.world.removeHandler('add-item', update);
    };
  }, [viewer, umPerPixel]);
  if (!bar) return null;
  const color = dark ? 'white' : 'black';
  return (
    <Box
      pos="absolute"
      left={16}
      bottom={16}
      style={{ pointerEvents: 'none' }}
      aria-label={`Scale: ${bar.label}`}
    >
      <Text size="xs" fw={600} c={color}>
        {bar.label}
      </Text>
      <Box w={bar.px} h={4} bg={color} />
    </Box>
  );
}
