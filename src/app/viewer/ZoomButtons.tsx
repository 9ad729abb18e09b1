// Home (fit), 1:1 (one image pixel per screen pixel), zoom in and out.
import { Button, Group } from '@mantine/core';
import type OpenSeadragon from 'openseadragon';

export function ZoomButtons({ viewer }: { viewer?: OpenSeadragon.Viewer }) {
  const oneToOne = () => {
    const item = viewer?.world.getItemAt(0);
    if (viewer && item) viewer.viewport.zoomTo(item.imageToViewportZoom(1));
  };
  return (
    <Group gap="xs">
      <Button size="xs" variant="default" onClick={() => viewer?.viewport.goHome()}>
        Fit
      </Button>
      <Button size="xs" variant="default" onClick={oneToOne}>
        1:1
      </Button>
      <Button size="xs" variant="default" aria-label="Zoom in" onClick={() => viewer?.viewport.zoomBy(2)}>
        +
      </Button>
      <Button size="xs" variant="default" aria-label="Zoom out" onClick={() => viewer?.viewport.zoomBy(0.5)}>
        −
      </Button>
    </Group>
  );
}
