// A card menu's ⋮ drawn `bare` (a list's first render: only the button, drawn the same, without the
// Menu — a floating-ui setup and a portal — which comes with the list's second render right after the
// first paint; usePaintedOnce). What the user did to the bare button is kept: a press, a click, Enter
// or Space opens the menu when it comes (`early`, the Menu's defaultOpened), and a focus on it moves
// to the menu's own button.
import { useEffect, useRef, useState, type FocusEvent } from 'react';

export function useEarlyMenu(bare: boolean) {
  const [early, setEarly] = useState(false);
  const focused = useRef(false);
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!bare && focused.current) ref.current?.focus();
  }, [bare]);
  const buttonProps = bare
    ? {
        ref,
        // Pressed, not only clicked: when the menu's button replaces this one between the press and
        // the release, no click reaches either button, and the press alone must still open the menu.
        onPointerDown: () => setEarly(true),
        onClick: () => setEarly(true),
        onFocus: () => (focused.current = true),
        // The bare button's removal sends a blur (Chromium), which does not count.
        onBlur: (e: FocusEvent<HTMLButtonElement>) => {
          if (e.currentTarget.isConnected) focused.current = false;
        },
      }
    : { ref };
  return { early, buttonProps };
}
