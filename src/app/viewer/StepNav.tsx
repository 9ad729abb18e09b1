// Previous / Next through a sequence (a review group's images, a study's slides), the one way both the
// reviewer's page and the study viewer step: the buttons, the left and right arrow keys, and a
// horizontal touch swipe on an area the page chooses (a header or strip, never the slide canvas, whose
// own drag pans the slide).
import { useEffect, useRef } from 'react';
import { Box, Button, Group, type BoxProps, type MantineSize } from '@mantine/core';

export interface Stepper {
  /** Zero-based position in the sequence. */
  at: number;
  count: number;
  go(index: number): void;
}

/** A swipe is a touch that moves at least this far sideways, and mostly sideways. */
const SWIPE_MIN_PX = 60;

const step = (s: Stepper, by: -1 | 1) => {
  const to = s.at + by;
  if (to >= 0 && to < s.count) s.go(to);
};

/**
 * Elements whose arrow keys are their own: text entry, sliders and other widgets, dialogs, and the slide
 * canvas (OpenSeadragon pans with the arrow keys while it has the focus).
 */
const OWN_ARROWS =
  'input, textarea, select, [contenteditable="true"], [role="slider"], [role="listbox"], [role="menu"], ' +
  '[role="tablist"], [role="radiogroup"], [role="dialog"], [data-testid="slide-viewer"]';

/** The left and right arrow keys step, unless the focused element uses them itself. */
function useArrowKeys(stepper: Stepper) {
  const latest = useRef(stepper);
  latest.current = stepper;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      if (e.target instanceof Element && e.target.closest(OWN_ARROWS)) return;
      e.preventDefault();
      step(latest.current, e.key === 'ArrowLeft' ? -1 : 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Previous and Next buttons; while they are shown, the arrow keys step too. */
export function StepNav({ stepper, size = 'lg' }: { stepper: Stepper; size?: MantineSize }) {
  useArrowKeys(stepper);
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size={size}
        variant="default"
        disabled={stepper.at <= 0}
        aria-keyshortcuts="ArrowLeft"
        onClick={() => step(stepper, -1)}
      >
        Previous
      </Button>
      <Button
        size={size}
        variant="default"
        disabled={stepper.at >= stepper.count - 1}
        aria-keyshortcuts="ArrowRight"
        onClick={() => step(stepper, 1)}
      >
        Next
      </Button>
    </Group>
  );
}

/**
 * An area where a horizontal touch swipe steps: to the left for Next, to the right for Previous.
 * Vertical moves still scroll the page (touch-action pan-y).
 */
export function SwipeArea({
  stepper,
  children,
  ...box
}: BoxProps & { stepper: Stepper; children: React.ReactNode }) {
  const start = useRef<{ x: number; y: number } | undefined>(undefined);
  return (
    <Box
      {...box}
      data-swipe-area=""
      style={{ touchAction: 'pan-y' }}
      onTouchStart={(e) => {
        const t = e.touches[0];
        start.current = e.touches.length === 1 && t ? { x: t.clientX, y: t.clientY } : undefined;
      }}
      onTouchEnd={(e) => {
        const from = start.current;
        const t = e.changedTouches[0];
        start.current = undefined;
        if (!from || !t) return;
        const dx = t.clientX - from.x;
        const dy = t.clientY - from.y;
        if (Math.abs(dx) >= SWIPE_MIN_PX && Math.abs(dx) > 2 * Math.abs(dy)) step(stepper, dx < 0 ? 1 : -1);
      }}
      onTouchCancel={() => (start.current = undefined)}
    >
      {children}
    </Box>
  );
}
