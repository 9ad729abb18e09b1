// The annotation tools as the tool bar lists them: their names, keyboard shortcuts and the text of
// their tooltips. One place for the shortcuts, so the keys handled and the keys shown agree.
import type { DrawTool } from './machine';

export type Tool = 'select' | DrawTool;

export interface ToolInfo {
  tool: Tool;
  /** The button's accessible name. */
  label: string;
  /** The key that picks it (shown in the tooltip). */
  key: string;
}

export const ToolText = {
  select: 'Select and move',
  rectangle: 'Rectangle',
  ellipse: 'Ellipse',
  polygon: 'Polygon',
  /** The freehand tool keeps the name of the viewer's first drawing tool. */
  freehand: 'Draw region',
  polyline: 'Polyline',
  point: 'Point',
  ruler: 'Ruler',
  deleteShape: 'Delete selected',
  undo: 'Undo',
  redo: 'Redo',
  toolBar: 'Annotation tools',
  polygonHint: 'Click or tap to add vertices; tap the first vertex, double-click or press Enter to close',
  polylineHint: 'Click or tap to add vertices; double-click or press Enter to end',
  selectHint: 'Tap a shape to select it; drag it or its handles to change it',
  notFound: 'That annotation is not saved yet; try again in a moment',
  newShape: 'New annotation',
  saveShape: 'Save annotation',
} as const;

export const TOOLS: readonly ToolInfo[] = [
  { tool: 'select', label: ToolText.select, key: 'V' },
  { tool: 'rectangle', label: ToolText.rectangle, key: 'R' },
  { tool: 'ellipse', label: ToolText.ellipse, key: 'E' },
  { tool: 'polygon', label: ToolText.polygon, key: 'P' },
  { tool: 'freehand', label: ToolText.freehand, key: 'F' },
  { tool: 'polyline', label: ToolText.polyline, key: 'L' },
  { tool: 'point', label: ToolText.point, key: 'O' },
  { tool: 'ruler', label: ToolText.ruler, key: 'M' },
];

export const SHORTCUTS = { delete: 'Delete', undo: 'Ctrl+Z', redo: 'Ctrl+Shift+Z' } as const;

/** A tooltip: the tool's name and its key. */
export const tooltipOf = (label: string, key: string) => `${label} (${key})`;

export type KeyAction =
  | { type: 'tool'; tool: Tool }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'delete' }
  | { type: 'finish' }
  | { type: 'cancel' };

/** What a key press asks for; undefined for keys the tools leave alone. */
export function keyAction(e: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): KeyAction | undefined {
  const mod = e.ctrlKey || e.metaKey;
  const k = e.key.toLowerCase();
  if (mod && k === 'z') return e.shiftKey ? { type: 'redo' } : { type: 'undo' };
  if (mod && k === 'y') return { type: 'redo' };
  if (mod || e.altKey) return undefined;
  if (e.key === 'Delete' || e.key === 'Backspace') return { type: 'delete' };
  if (e.key === 'Enter') return { type: 'finish' };
  if (e.key === 'Escape') return { type: 'cancel' };
  const tool = TOOLS.find((t) => t.key.toLowerCase() === k);
  return tool ? { type: 'tool', tool: tool.tool } : undefined;
}
