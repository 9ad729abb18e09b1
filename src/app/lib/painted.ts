// `usePaintedOnce`: false until a render with `ready` set has been painted, then a low-priority update
// turns it true. What a page's first render can leave out (tooltips, menus, closed dialogs, polls)
// comes with that second render, so the first row on screen does not wait for it (first row
// < 100 ms from the dashboard's tab; the slides and studies lists).
import { startTransition, useEffect, useState } from 'react';

export function usePaintedOnce(ready = true): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A timer set from an animation frame runs after that frame's paint.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, painted]);
  return painted;
}
