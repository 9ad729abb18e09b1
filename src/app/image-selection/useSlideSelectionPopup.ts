// The opener's side of the slide selection popup (§2.8): opens /image-selection in a 1400×800
// window, answers its ready-slide-select with start-slide-select, follows slide-select, takes
// done-slides as the final selection, and checks every 100 ms whether the popup was closed.
import { useCallback, useEffect, useRef, useState } from 'react';
import { POPUP_CHECK_MS, POPUP_HEIGHT, POPUP_WIDTH, readMessage } from './protocol';

export interface PopupOptions {
  studyId?: string;
  selection: string[];
  /** The ids that may be chosen, asked for when the popup is ready (absent: any readable slide). */
  selectable?: () => Promise<string[] | undefined>;
  /** Called with the final selection (done-slides). */
  onDone(selection: string[]): void;
}

export function useSlideSelectionPopup() {
  const [open, setOpen] = useState(false);
  const [selection, setSelection] = useState<string[]>([]);
  const popup = useRef<Window | null>(null);
  /** The last popup opened: its messages still count after the 100 ms check saw it closed. */
  const source = useRef<Window | null>(null);
  const opts = useRef<PopupOptions | undefined>(undefined);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const target = source.current;
      // A message posted just before the popup closed can arrive with no source (same origin only).
      if (!target || (event.source !== target && event.source !== null)) return;
      const msg = readMessage(event);
      const o = opts.current;
      if (!msg || !o) return;
      if (msg.type === 'ready-slide-select') {
        void (o.selectable?.() ?? Promise.resolve(undefined)).then(
          (selectableIds) =>
            target.closed ||
            target.postMessage(
              { type: 'start-slide-select', selection: o.selection, selectableIds },
              window.location.origin,
            ),
        );
      }
      if (msg.type === 'slide-select') setSelection(msg.selection);
      if (msg.type === 'done-slides') {
        setSelection(msg.selection);
        o.onDone(msg.selection);
        target.close();
      }
    };
    window.addEventListener('message', onMessage);
    const timer = setInterval(() => {
      if (popup.current?.closed) {
        popup.current = null;
        setOpen(false);
      }
    }, POPUP_CHECK_MS);
    return () => {
      window.removeEventListener('message', onMessage);
      clearInterval(timer);
    };
  }, []);

  const openPopup = useCallback((o: PopupOptions) => {
    opts.current = o;
    setSelection(o.selection);
    const url = `/image-selection${o.studyId ? `?studyId=${encodeURIComponent(o.studyId)}` : ''}`;
    const left = Math.max(0, (window.screen.width - POPUP_WIDTH) / 2);
    const top = Math.max(0, (window.screen.height - POPUP_HEIGHT) / 2);
    if (popup.current && !popup.current.closed) popup.current.focus();
    else
      popup.current = window.open(
        url,
        'slide-selection',
        `popup,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`,
      );
    source.current = popup.current;
    setOpen(!!popup.current);
  }, []);

  return { open, selection, openPopup };
}
