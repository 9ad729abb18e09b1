// The viewer's Annotations button: opens the image's annotations beside the canvas.
import { useState } from 'react';
import { Button, Drawer } from '@mantine/core';
import { AnnotationsPanel } from './AnnotationsPanel';

export function AnnotationsButton({ imageId }: { imageId: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button size="compact-sm" variant="light" onClick={() => setOpened(true)}>
        Annotations
      </Button>
      <Drawer opened={opened} onClose={() => setOpened(false)} position="right" title="Annotations" size="md">
        <AnnotationsPanel imageId={imageId} />
      </Drawer>
    </>
  );
}
