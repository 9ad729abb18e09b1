// When the viewer's side panels (the image strip, the controls) give the slide the width: below this
// window width (a 10-inch tablet in portrait, a phone) the image strip goes above the slide and the
// controls into a drawer; a tablet in landscape and a desktop keep them beside it.
import { em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

export const VIEWER_PANELS_MIN_WIDTH = 1024;

/** True below VIEWER_PANELS_MIN_WIDTH; known on the first render, so the slide is laid out once. */
export const useNarrowViewer = (): boolean =>
  useMediaQuery(`(max-width: ${em(VIEWER_PANELS_MIN_WIDTH - 0.02)})`, false, {
    getInitialValueInEffect: false,
  });
