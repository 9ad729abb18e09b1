// What an outbox entry does to the local mirror, as pure functions: the effect of an entry, how it
// applies to a row, and how a stored row is rebuilt from the server's copy plus the entries still
// waiting. The merge tests (tests/unit/local/merge.test.ts) drive these directly.
//
// Conflict rule (one, fixed, STYLE §6): the server's copy is the base; local entries re-apply on top
// of every newer base in creation order. Plain fields: the later write wins, field by field (a PATCH
// carries only the fields the user changed). Set fields: add/remove operations, so concurrent edits
// merge. Fields the user never changes (status, counts, dates) are always the server's.
import { UNKNOWN_ERROR } from '../api/messages';
import type { MirrorRow, OutboxEntry } from './db';
import { kindSpec, targetOfPath, type KindSpec } from './kinds';
import type { SyncKind } from '../api/sync';

export type Row = Record<string, unknown> & { id: string };
type Sets = Record<string, string[]>;

export type Effect =
  | { op: 'create'; spec: KindSpec; id: string; fields: Record<string, unknown> }
  | { op: 'update'; spec: KindSpec; id: string; set: Record<string, unknown>; add: Sets; remove: Sets }
  | { op: 'delete'; spec: KindSpec; id: string };

export const targetKey = (kind: SyncKind, id: string) => `${kind}:${id}`;

/** Where a row created here under a temporary id went once the server gave it its id (meta key). */
export const movedKey = (kind: SyncKind, temporaryId: string) => `moved:${kind}:${temporaryId}`;

export function parseTarget(target: string | undefined): { spec: KindSpec; id: string } | undefined {
  if (!target) return undefined;
  const at = target.indexOf(':');
  if (at < 1) return undefined;
  try {
    return { spec: kindSpec(target.slice(0, at) as SyncKind), id: target.slice(at + 1) };
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Only arrays of strings count as set operations; anything else in add/remove is ignored locally. */
function setsOf(v: unknown): Sets {
  if (!isObject(v)) return {};
  const out: Sets = {};
  for (const [k, list] of Object.entries(v))
    if (Array.isArray(list)) out[k] = list.filter((x): x is string => typeof x === 'string');
  return out;
}

/** The local effect of an entry, or undefined for a mutation that changes no mirrored row. */
export function effectOf(
  entry: Pick<OutboxEntry, 'method' | 'path' | 'body' | 'target'>,
): Effect | undefined {
  const fromPath = targetOfPath(entry.path);
  const target =
    parseTarget(entry.target) ?? (fromPath?.id ? { spec: fromPath.spec, id: fromPath.id } : undefined);
  if (!fromPath || !target || target.spec !== fromPath.spec) return undefined;
  const body = isObject(entry.body) ? entry.body : {};
  const inner = body[fromPath.spec.entityKey];
  const fields = isObject(inner) ? inner : {};
  if (entry.method === 'POST' && !fromPath.id)
    return { op: 'create', spec: target.spec, id: target.id, fields };
  if (entry.method === 'DELETE' && fromPath.id) return { op: 'delete', spec: target.spec, id: target.id };
  if ((entry.method === 'PATCH' || entry.method === 'PUT') && fromPath.id)
    return {
      op: 'update',
      spec: target.spec,
      id: target.id,
      set: fields,
      add: setsOf(body.add),
      remove: setsOf(body.remove),
    };
  return undefined;
}

/** Union keeping the existing order, then the added values in theirs; no duplicates. */
export function addToSet(current: unknown, added: readonly string[]): string[] {
  const list = Array.isArray(current) ? current.filter((x): x is string => typeof x === 'string') : [];
  const seen = new Set(list);
  for (const value of added) {
    if (seen.has(value)) continue;
    seen.add(value);
    list.push(value);
  }
  return list;
}

export function removeFromSet(current: unknown, removed: readonly string[]): string[] {
  const list = Array.isArray(current) ? current.filter((x): x is string => typeof x === 'string') : [];
  const gone = new Set(removed);
  return list.filter((x) => !gone.has(x));
}

/** Applies one effect to a row (never mutates it); undefined means the row does not exist. */
export function applyEffect(
  row: Row | undefined,
  effect: Effect,
  preview?: Record<string, unknown>,
): Row | undefined {
  switch (effect.op) {
    case 'create':
      return { ...preview, ...row, ...effect.fields, id: row?.id ?? effect.id };
    case 'delete':
      return undefined;
    case 'update': {
      if (!row) return undefined; // an edit of a row the server deleted: nothing to show
      const next: Row = { ...row, ...effect.set, id: row.id };
      for (const [field, values] of Object.entries(effect.add)) next[field] = addToSet(next[field], values);
      for (const [field, values] of Object.entries(effect.remove))
        next[field] = removeFromSet(next[field], values);
      return next;
    }
  }
}

/** A stored row without its local bookkeeping: what the server sent, or what the user sees. */
export function stripLocal(row: Record<string, unknown>): Row {
  const { $base: _b, $pending: _p, $failed: _f, $hidden: _h, ...rest } = row;
  return rest as Row;
}

/**
 * The row to store for one target: the server's copy (`base`: undefined/null when the server has
 * none) with every entry for it applied in order. Failed entries are skipped (rolled back) but leave
 * their message on the row. Returns undefined when nothing is to be stored. A row removed by a
 * pending delete (or a failed create) is kept hidden so that its base survives for a rollback.
 */
export function rebuildRow(
  id: string,
  base: Record<string, unknown> | null | undefined,
  entries: readonly OutboxEntry[],
): MirrorRow | undefined {
  const clean = base ? stripLocal(base) : undefined;
  if (entries.length === 0) return clean;
  let row: Row | undefined = clean;
  let pending = 0;
  let failed: string | undefined;
  for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
    if (entry.state === 'failed') {
      failed = entry.error || UNKNOWN_ERROR;
      continue;
    }
    pending++;
    const effect = effectOf(entry);
    if (effect) row = applyEffect(row, effect, entry.preview);
  }
  const stored: MirrorRow = { ...(row ?? { id }), id, $base: clean ?? null, $pending: pending };
  if (failed !== undefined) stored.$failed = failed;
  if (!row) stored.$hidden = 1;
  return stored;
}
