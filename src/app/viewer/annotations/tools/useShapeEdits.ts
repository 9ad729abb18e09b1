// The shape edits of the annotation tools sent through the outbox, and their undo/redo history for
// this viewing of the image (history.ts). Every edit is one mutation: a create is a POST, a move or
// reshape a PATCH of the content, a delete a DELETE; a create still waiting in the outbox is changed
// by replacing its queued entry (or discarding it), since it has no server id yet, once no replay is
// sending it; one sent meanwhile is changed where it is stored.
import { useCallback, useRef, useState } from 'react';
import type { Annotation } from '../../../../api/entities';
import { useMutations } from '../../../sync/hooks';
import { lookKey, useAddAnnotation, type QueuedAnnotation } from '../useImageAnnotations';
import {
  bind,
  emptyHistory,
  record,
  redo,
  resolve,
  undo,
  type Edit,
  type History,
  type Op,
  type Resolved,
  type Target,
} from './history';
import { ToolText } from './tools';

export interface ShapeSources {
  rows: readonly Annotation[];
  creates: readonly QueuedAnnotation[];
  /** Reads the list again; resolves with the fresh rows. */
  refetch(): Promise<readonly Annotation[]>;
}

/** One shape on the slide the select tool can pick: a stored row or a queued create. */
export interface Selectable {
  /** The row's id or the queued entry's id. */
  ref: string;
  stored: boolean;
  name: string;
  content: unknown;
}

export function useShapeEdits(imageId: string, reviewId: string | undefined, sources: ShapeSources) {
  const mutations = useMutations();
  const addAnnotation = useAddAnnotation(imageId, reviewId);
  const [history, setHistory] = useState<History>(emptyHistory);
  // The latest history and sources for the async steps (a step reads what the previous one left).
  const current = useRef({ history, sources });
  current.current = { history, sources };
  const busy = useRef(false);

  const find = useCallback(async (target: Target | undefined): Promise<Resolved> => {
    const { sources: s } = current.current;
    const queued = new Set(s.creates.map((q) => q.id));
    const found = resolve(target, queued, s.rows, lookKey);
    if (found) return found;
    // Sent a moment ago: the stored row is in the next read of the list.
    return resolve(target, queued, await s.refetch(), lookKey);
  }, []);

  /**
   * Takes back a queued create, or, when it was sent while this edit waited for the replay in
   * progress, where it is stored now (read again from the server): a create being sent cannot be
   * discarded, or the shape would come back with the next read.
   */
  const takeBack = useCallback(
    async (target: Target | undefined, entryId: string): Promise<{ stored: string } | undefined> => {
      if (await mutations.discardUnsent(entryId)) return undefined;
      const found = resolve(target, new Set(), await current.current.sources.refetch(), lookKey);
      if (!found || !('stored' in found)) throw new Error(ToolText.notFound);
      return found;
    },
    [mutations],
  );

  /** Sends one mutation; the history with the key bound to where the annotation lives afterwards. */
  const apply = useCallback(
    async (h: History, op: Op): Promise<History> => {
      if (op.type === 'create') {
        const entry = await addAnnotation(op.name, op.content);
        return bind(h, op.key, { entryId: entry.id, name: op.name.trim(), content: op.content });
      }
      const target = h.targets[op.key];
      const located = await find(target);
      if (!located) throw new Error(ToolText.notFound);
      const found = 'queued' in located ? ((await takeBack(target, located.queued)) ?? located) : located;
      if (op.type === 'delete') {
        if ('stored' in found)
          await mutations.enqueue({
            method: 'DELETE',
            path: `/annotations/${encodeURIComponent(found.stored)}`,
          });
        return 'stored' in found ? bind(h, op.key, { id: found.stored }) : h;
      }
      if ('stored' in found) {
        await mutations.enqueue({
          method: 'PATCH',
          path: `/annotations/${encodeURIComponent(found.stored)}`,
          body: { annotation: { content: op.content } },
        });
        return bind(h, op.key, { id: found.stored });
      }
      // A queued create (taken back above) is replaced by one with the new content: it has no server
      // id to PATCH yet.
      const name = target && 'name' in target ? target.name : '';
      const entry = await addAnnotation(name, op.content);
      return bind(h, op.key, { entryId: entry.id, name, content: op.content });
    },
    [addAnnotation, find, takeBack, mutations],
  );

  /** Runs one step at a time: a second Ctrl+Z while the first is being queued waits its turn. */
  const run = useCallback(async (step: (h: History) => Promise<History>) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const next = await step(current.current.history);
      current.current.history = next;
      setHistory(next);
    } finally {
      busy.current = false;
    }
  }, []);

  /** The history key of a shape on the slide: the key an earlier edit gave it, else its own ref. */
  const keyOf = (h: History, shape: Selectable): { key: string; target: Target } => {
    const target: Target = shape.stored
      ? { id: shape.ref }
      : { entryId: shape.ref, name: shape.name, content: shape.content };
    const known = Object.entries(h.targets).find(([, t]) =>
      'id' in t ? shape.stored && t.id === shape.ref : !shape.stored && t.entryId === shape.ref,
    );
    return { key: known?.[0] ?? shape.ref, target };
  };

  const create = (name: string, content: unknown) =>
    run(async (h) => {
      const entry = await addAnnotation(name, content);
      const edit: Edit = { type: 'create', key: entry.id, name: name.trim(), content };
      return record(h, edit, { entryId: entry.id, name: name.trim(), content });
    });

  const update = (shape: Selectable, content: unknown) =>
    run(async (h) => {
      const { key, target } = keyOf(h, shape);
      const bound = bind(h, key, target);
      const applied = await apply(bound, { type: 'update', key, content });
      return record(applied, { type: 'update', key, before: shape.content, after: content });
    });

  const remove = (shape: Selectable) =>
    run(async (h) => {
      const { key, target } = keyOf(h, shape);
      const applied = await apply(bind(h, key, target), { type: 'delete', key });
      return record(applied, { type: 'delete', key, name: shape.name, content: shape.content });
    });

  const undoLast = () =>
    run(async (h) => {
      const step = undo(h);
      return step ? apply(step.history, step.op) : h;
    });

  const redoLast = () =>
    run(async (h) => {
      const step = redo(h);
      return step ? apply(step.history, step.op) : h;
    });

  return { history, create, update, remove, undo: undoLast, redo: redoLast };
}
