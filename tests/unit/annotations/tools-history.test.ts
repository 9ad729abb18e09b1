// Undo and redo of shape edits: which mutation each step asks for (undo of a create is a delete, of a
// delete a create, of a move the previous content), keys that follow an annotation created again, and
// finding a queued create once the server has stored it.
import { describe, expect, it } from 'vitest';
import {
  HISTORY_LIMIT,
  bind,
  canRedo,
  canUndo,
  emptyHistory,
  record,
  redo,
  resolve,
  undo,
  type History,
} from '../../../src/app/viewer/annotations/tools/history';

const A = { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { text: '' } };
const B = { type: 'Feature', geometry: { type: 'Point', coordinates: [9, 9] }, properties: { text: '' } };
const lookKey = (name: string | undefined, content: unknown) => `${name ?? ''}|${JSON.stringify(content)}`;

describe('shape edit history', () => {
  it('undo of a create deletes it; redo creates it again, and the key follows the new entry', () => {
    let h: History = record(
      emptyHistory(),
      { type: 'create', key: 'e1', name: 'n', content: A },
      { entryId: 'e1', name: 'n', content: A },
    );
    expect(canUndo(h)).toBe(true);
    expect(canRedo(h)).toBe(false);
    const u = undo(h)!;
    expect(u.op).toEqual({ type: 'delete', key: 'e1' });
    h = u.history;
    expect(canUndo(h)).toBe(false);
    const r = redo(h)!;
    expect(r.op).toEqual({ type: 'create', key: 'e1', name: 'n', content: A });
    // Created again under a new outbox entry: later steps about e1 reach it there.
    h = bind(r.history, 'e1', { entryId: 'e2', name: 'n', content: A });
    expect(undo(h)!.op).toEqual({ type: 'delete', key: 'e1' });
    expect(h.targets.e1).toEqual({ entryId: 'e2', name: 'n', content: A });
  });

  it('undo of a move or vertex edit puts the content back; redo applies it again', () => {
    const h = record(emptyHistory(), { type: 'update', key: 'r1', before: A, after: B }, { id: 'r1' });
    const u = undo(h)!;
    expect(u.op).toEqual({ type: 'update', key: 'r1', content: A });
    expect(redo(u.history)!.op).toEqual({ type: 'update', key: 'r1', content: B });
  });

  it('undo of a delete creates it again with its name and content', () => {
    const h = record(emptyHistory(), { type: 'delete', key: 'r1', name: 'Margin', content: A }, { id: 'r1' });
    expect(undo(h)!.op).toEqual({ type: 'create', key: 'r1', name: 'Margin', content: A });
    expect(redo(undo(h)!.history)!.op).toEqual({ type: 'delete', key: 'r1' });
  });

  it('steps go back in order, and a new edit clears what could be redone', () => {
    let h = record(emptyHistory(), { type: 'create', key: 'k', name: '', content: A }, { id: 'k' });
    h = record(h, { type: 'update', key: 'k', before: A, after: B });
    h = record(h, { type: 'delete', key: 'k', name: '', content: B });
    const ops = [];
    for (let s = undo(h); s; s = undo(s.history)) {
      ops.push(s.op.type);
      h = s.history;
    }
    expect(ops).toEqual(['create', 'update', 'delete']);
    expect(canRedo(h)).toBe(true);
    h = record(h, { type: 'create', key: 'k2', name: '', content: A });
    expect(canRedo(h)).toBe(false);
    expect(undo(emptyHistory())).toBeUndefined();
    expect(redo(emptyHistory())).toBeUndefined();
  });

  it('keeps at most HISTORY_LIMIT steps', () => {
    let h = emptyHistory();
    for (let i = 0; i < HISTORY_LIMIT + 5; i++)
      h = record(h, { type: 'update', key: 'k', before: i, after: i + 1 });
    expect(h.done).toHaveLength(HISTORY_LIMIT);
    expect(undo(h)!.op).toEqual({ type: 'update', key: 'k', content: HISTORY_LIMIT + 4 });
  });

  it('resolves a queued create while it waits, then as the stored row with its name and content', () => {
    const target = { entryId: 'e1', name: 'n', content: A };
    expect(resolve(target, new Set(['e1']), [], lookKey)).toEqual({ queued: 'e1' });
    const rows = [
      { id: 'x', name: 'n', content: B },
      { id: 'r9', name: 'n', content: A },
    ];
    expect(resolve(target, new Set(), rows, lookKey)).toEqual({ stored: 'r9' });
    expect(resolve(target, new Set(), [], lookKey)).toBeUndefined();
    expect(resolve({ id: 'r1' }, new Set(), [], lookKey)).toEqual({ stored: 'r1' });
    expect(resolve(undefined, new Set(), rows, lookKey)).toBeUndefined();
  });
});
