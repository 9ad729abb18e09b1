// The tools' keyboard shortcuts: the keys handled are the keys shown in the tooltips.
import { describe, expect, it } from 'vitest';
import { keyAction, SHORTCUTS, TOOLS, tooltipOf } from '../../../src/app/viewer/annotations/tools/tools';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) =>
  keyAction({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe('annotation tool shortcuts', () => {
  it('each tool has its own key, and the key picks it', () => {
    expect(TOOLS.map((t) => t.key).join('')).toBe('VREPFLOM');
    for (const t of TOOLS) {
      expect(key(t.key.toLowerCase())).toEqual({ type: 'tool', tool: t.tool });
      expect(key(t.key)).toEqual({ type: 'tool', tool: t.tool });
      expect(tooltipOf(t.label, t.key)).toBe(`${t.label} (${t.key})`);
    }
  });

  it('Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (⌘ on a Mac); Delete, Enter and Escape', () => {
    expect(SHORTCUTS).toEqual({ delete: 'Delete', undo: 'Ctrl+Z', redo: 'Ctrl+Shift+Z' });
    expect(key('z', { ctrlKey: true })).toEqual({ type: 'undo' });
    expect(key('Z', { ctrlKey: true, shiftKey: true })).toEqual({ type: 'redo' });
    expect(key('z', { metaKey: true })).toEqual({ type: 'undo' });
    expect(key('y', { ctrlKey: true })).toEqual({ type: 'redo' });
    expect(key('Delete')).toEqual({ type: 'delete' });
    expect(key('Backspace')).toEqual({ type: 'delete' });
    expect(key('Enter')).toEqual({ type: 'finish' });
    expect(key('Escape')).toEqual({ type: 'cancel' });
    // Browser and system shortcuts stay theirs.
    expect(key('r', { ctrlKey: true })).toBeUndefined();
    expect(key('p', { altKey: true })).toBeUndefined();
    expect(key('x')).toBeUndefined();
  });
});
