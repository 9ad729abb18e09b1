// Undo and redo of the shape edits made in one viewing of an image: create, move or reshape (one
// content update), delete. An entry is undone and redone by the same outbox mutations the edit itself
// made — undoing a create deletes, undoing a delete creates the annotation again, undoing a move puts
// the previous content back. Annotations are named by a key of this history: an annotation that is
// created again has a new id, so the key is bound to where it lives now (`bind`), and every entry
// about it follows.

/** Where an annotation lives: a stored row, or a create still waiting in the outbox. */
export type Target =
  | { id: string }
  /** A queued create: its outbox entry, and the name and content it was queued with (to find the stored row once sent). */
  | { entryId: string; name: string; content: unknown };

export type Edit =
  | { type: 'create'; key: string; name: string; content: unknown }
  | { type: 'update'; key: string; before: unknown; after: unknown }
  | { type: 'delete'; key: string; name: string; content: unknown };

/** A mutation to send: what an undo or redo asks the outbox for. */
export type Op =
  | { type: 'create'; key: string; name: string; content: unknown }
  | { type: 'update'; key: string; content: unknown }
  | { type: 'delete'; key: string };

export interface History {
  done: readonly Edit[];
  undone: readonly Edit[];
  targets: Readonly<Record<string, Target>>;
}

/** Edits remembered per image: enough for a session's work, bounded so a long one stays small. */
export const HISTORY_LIMIT = 100;

export const emptyHistory = (): History => ({ done: [], undone: [], targets: {} });

/** The history after an edit the user made (a new edit clears what could be redone). */
export function record(h: History, edit: Edit, target?: Target): History {
  const done = [...h.done, edit].slice(-HISTORY_LIMIT);
  const targets = target ? { ...h.targets, [edit.key]: target } : h.targets;
  return { done, undone: [], targets };
}

/** The annotation behind a key now lives at `target` (created again, or its queued create sent). */
export const bind = (h: History, key: string, target: Target): History => ({
  ...h,
  targets: { ...h.targets, [key]: target },
});

const inverse = (e: Edit): Op => {
  switch (e.type) {
    case 'create':
      return { type: 'delete', key: e.key };
    case 'delete':
      return { type: 'create', key: e.key, name: e.name, content: e.content };
    case 'update':
      return { type: 'update', key: e.key, content: e.before };
  }
};

const forward = (e: Edit): Op => {
  switch (e.type) {
    case 'create':
      return { type: 'create', key: e.key, name: e.name, content: e.content };
    case 'delete':
      return { type: 'delete', key: e.key };
    case 'update':
      return { type: 'update', key: e.key, content: e.after };
  }
};

export const canUndo = (h: History) => h.done.length > 0;
export const canRedo = (h: History) => h.undone.length > 0;

/** The mutation that undoes the last edit, and the history once it is applied; undefined when there is none. */
export function undo(h: History): { op: Op; history: History } | undefined {
  const last = h.done[h.done.length - 1];
  if (!last) return undefined;
  return { op: inverse(last), history: { ...h, done: h.done.slice(0, -1), undone: [...h.undone, last] } };
}

/** The mutation that redoes the last undone edit, and the history once it is applied. */
export function redo(h: History): { op: Op; history: History } | undefined {
  const next = h.undone[h.undone.length - 1];
  if (!next) return undefined;
  return { op: forward(next), history: { ...h, done: [...h.done, next], undone: h.undone.slice(0, -1) } };
}

/** What a target is now: a queued create still in the outbox, a stored row, or not found (yet). */
export type Resolved = { queued: string } | { stored: string } | undefined;

/**
 * Finds a target among the queued creates (outbox entry ids) and the stored rows. A queued create that
 * has been sent is found as the row with its name and content (`lookKey`), as the overlay matches them.
 */
export function resolve(
  target: Target | undefined,
  queued: ReadonlySet<string>,
  rows: readonly { id: string; name?: string; content: unknown }[],
  lookKey: (name: string | undefined, content: unknown) => string,
): Resolved {
  if (!target) return undefined;
  if ('id' in target) return { stored: target.id };
  if (queued.has(target.entryId)) return { queued: target.entryId };
  const key = lookKey(target.name, target.content);
  const row = rows.find((r) => lookKey(r.name, r.content) === key);
  return row ? { stored: row.id } : undefined;
}
