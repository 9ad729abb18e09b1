// The viewer's Annotations button: opens the image's annotations beside the canvas. On a narrow
// viewer the drawer covers the slide, so picking a row closes it and the picked region shows.
import { useState } from 'react';
import { Button, Drawer } from '@mantine/core';
import { useNarrowViewer } from '../layout';
import { AnnotationsPanel } from './AnnotationsPanel';

export function AnnotationsButton({ imageId }: { imageId: string }) {
  const [opened, setOpened] = useState(false);
  const narrow = useNarrowViewer();
  return (
    <>
      <Button size="compact-sm" variant="light" onClick={() => setOpened(true)}>
        Annotations
      </Button>
      <Drawer opened={opened} onClose={() => setOpened(false)} position="right" title="Annotations" size="md">
        <AnnotationsPanel imageId={imageId} onPicked={narrow ? () => setOpened(false) : undefined} />
      </Drawer>
    </>
  );
}
