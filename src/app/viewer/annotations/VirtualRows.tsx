// A list that renders only the rows in (or near) its scrolled view: an image's 10,000 annotations
// cost a screenful of rows, not 10,000. Rows may differ in height and change it (a note opened for
// editing): each rendered row is measured, and rows never rendered count at an estimate until then.
// Up to `maxHeight` tall; a short list takes its own height and does not scroll. A row to reveal (the
// selected one) is scrolled into view when it, or its token, changes.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/** Rows drawn beyond each edge of the view, in pixels: a quick scroll does not show blanks first. */
const OVERSCAN = 400;

export function VirtualRows<T>({
  items,
  keyOf,
  render,
  estimate = 72,
  maxHeight = '60vh',
  testId,
  reveal,
  revealToken,
}: {
  items: readonly T[];
  keyOf(item: T): string;
  render(item: T): ReactNode;
  /** A row's height in pixels until it has been measured. */
  estimate?: number;
  maxHeight?: string;
  testId?: string;
  /** The key of a row to scroll into view. */
  reveal?: string;
  /** Changes when the same row is to be revealed again. */
  revealToken?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(800);
  const [heights, setHeights] = useState<ReadonlyMap<string, number>>(new Map());
  const pending = useRef(new Map<string, number>());
  const flush = useRef(0);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewHeight(el.clientHeight || 800));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => () => cancelAnimationFrame(flush.current), []);

  // Measured heights arrive row by row: applied together, once a frame.
  const measure = useCallback((key: string, height: number) => {
    pending.current.set(key, height);
    flush.current ||= requestAnimationFrame(() => {
      flush.current = 0;
      const changes = pending.current;
      pending.current = new Map();
      setHeights((old) => {
        if ([...changes].every(([k, h]) => old.get(k) === h)) return old;
        return new Map([...old, ...changes]);
      });
    });
  }, []);

  const tops = useMemo(() => {
    const out = new Float64Array(items.length + 1);
    for (let i = 0; i < items.length; i++) out[i + 1] = out[i] + (heights.get(keyOf(items[i])) ?? estimate);
    return out;
  }, [items, heights, keyOf, estimate]);
  const total = tops[items.length];

  // Once per reveal (also when its row arrives later): the user's own scrolling afterwards stays.
  const revealed = useRef<string>(undefined);
  useEffect(() => {
    const el = box.current;
    const asked = `${reveal}\u0000${revealToken}`;
    if (!el || reveal === undefined || revealed.current === asked) return;
    const i = items.findIndex((item) => keyOf(item) === reveal);
    if (i < 0) return;
    revealed.current = asked;
    const [top, bottom] = [tops[i], tops[i + 1]];
    if (top < el.scrollTop) el.scrollTop = top;
    else if (bottom > el.scrollTop + el.clientHeight) el.scrollTop = bottom - el.clientHeight;
  }, [reveal, revealToken, items, keyOf, tops]);

  // The first row whose bottom is below the view's top (binary search), then rows until its bottom.
  const from = scrollTop - OVERSCAN;
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tops[mid + 1] <= from) lo = mid + 1;
    else hi = mid;
  }
  const shown: number[] = [];
  for (let i = lo; i < items.length && tops[i] < scrollTop + viewHeight + OVERSCAN; i++) shown.push(i);

  return (
    <div
      ref={box}
      data-testid={testId}
      data-rows={items.length}
      style={{ maxHeight, overflowY: 'auto', position: 'relative' }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div style={{ height: total, position: 'relative' }}>
        {shown.map((i) => {
          const key = keyOf(items[i]);
          return (
            <MeasuredRow key={key} rowKey={key} top={tops[i]} onHeight={measure}>
              {render(items[i])}
            </MeasuredRow>
          );
        })}
      </div>
    </div>
  );
}

function MeasuredRow({
  rowKey,
  top,
  onHeight,
  children,
}: {
  rowKey: string;
  top: number;
  onHeight(key: string, height: number): void;
  children: ReactNode;
}) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const observer = new ResizeObserver(() => onHeight(rowKey, node.offsetHeight));
    observer.observe(node);
    return () => observer.disconnect();
  }, [rowKey, onHeight]);
  return (
    <div ref={el} style={{ position: 'absolute', top, left: 0, right: 0, paddingBottom: 8 }}>
      {children}
    </div>
  );
}
