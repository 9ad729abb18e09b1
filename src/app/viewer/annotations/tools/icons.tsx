// Line icons of the annotation tools and the regions' show/hide eye (18 px, currentColor), drawn here
// so the tool bar needs no icon set.
import type { ReactNode } from 'react';
import type { Tool } from './tools';

const PATHS: Record<Tool | 'delete' | 'undo' | 'redo', string> = {
  select: 'M5 3l14 8-6 1.5L10 19z',
  rectangle: 'M4 6h16v12H4z',
  ellipse: 'M12 5c4.97 0 9 3.13 9 7s-4.03 7-9 7-9-3.13-9-7 4.03-7 9-7z',
  polygon: 'M5 8l7-5 8 6-3 11H7z',
  freehand: 'M4 16c2-6 5-10 8-9s1 7 4 7 3-5 4-6',
  polyline: 'M3 18l5-9 6 5 7-10',
  point: 'M12 9a3 3 0 1 1 0 6 3 3 0 0 1 0-6zM12 2v4M12 18v4M2 12h4M18 12h4',
  ruler: 'M3 17L17 3l4 4L7 21zM7 13l2 2M10 10l2 2M13 7l2 2',
  delete: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6',
  undo: 'M9 14L4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3',
  redo: 'M15 14l5-5-5-5M20 9H10a6 6 0 0 0 0 12h3',
};

/** An 18 px line icon in the current colour, drawn on a 24-unit grid. */
function LineIcon({ children }: { children: ReactNode }) {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinejoin="round"
      strokeLinecap="round"
      aria-hidden
    >
      {children}
    </svg>
  );
}

export function ToolIcon({ name }: { name: keyof typeof PATHS }) {
  return (
    <LineIcon>
      <path d={PATHS[name]} />
    </LineIcon>
  );
}

/** An eye, struck through when the regions are hidden. */
export function EyeIcon({ open }: { open: boolean }) {
  return (
    <LineIcon>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {!open && <path d="M3 3l18 18" />}
    </LineIcon>
  );
}
