// Writing server data into the mirror and rebuilding rows that have local changes. Every write that
// touches a row with outbox entries re-applies those entries on the new server copy (effects.ts), so
// a pull never wipes out a pending change and a rollback always lands on the latest server copy.
// Callers run these inside a Dexie transaction over the kind's table and the outbox.
import type { SyncKind } from '../api/sync';
import type { LocalDb, MirrorRow } from './db';
import { rebuildRow, stripLocal, targetKey } from './effects';
import { kindSpec } from './kinds';

type Entity = Record<string, unknown> & { id: string };

/** The server's copy behind a stored row: its base when it has local changes, else the row itself. */
export function baseOf(row: MirrorRow | undefined): Record<string, unknown> | null {
  if (!row) return null;
  if (row.$base !== undefined) return row.$base;
  return stripLocal(row);
}

/**
 * Keeps the newer of two server copies by updatedAt (ties and missing dates: the incoming one), so a
 * late pull page never replaces the fresher copy a mutation answered with.
 */
export function newerCopy(
  current: Record<string, unknown> | null,
  incoming: Record<string, unknown>,
): Record<string, unknown> {
  const a = typeof current?.updatedAt === 'string' ? Date.parse(current.updatedAt) : NaN;
  const b = typeof incoming.updatedAt === 'string' ? Date.parse(incoming.updatedAt) : NaN;
  return current && a > b ? current : incoming;
}

/** Rebuilds one row from a (new) server copy and the outbox entries targeting it, and stores it. */
export async function rebuildTarget(
  db: LocalDb,
  kind: SyncKind,
  id: string,
  base?: Record<string, unknown> | null,
): Promise<void> {
  const table = db.mirror(kindSpec(kind).table);
  const current = await table.get(id);
  const serverCopy = base === undefined ? baseOf(current) : base;
  const entries = await db.outbox.where('target').equals(targetKey(kind, id)).toArray();
  const next = rebuildRow(id, serverCopy, entries);
  if (next) await table.put(next);
  else if (current) await table.delete(id);
}

/** Which of these rows have outbox entries: looked up by index, costing what matches, not the outbox. */
async function idsWithEntries(db: LocalDb, kind: SyncKind, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const prefix = `${kind}:`;
  const targets = (await db.outbox
    .where('target')
    .anyOf(ids.map((id) => prefix + id))
    .keys()) as string[];
  return new Set(targets.map((t) => t.slice(prefix.length)));
}

/**
 * Stores server rows and deletions of one kind (a pull page, or a mutation's answer). Rows with local
 * changes are rebuilt on the new copy (keeping the newer of two copies); the others are written as
 * they come, without reading them first: the feed is in change order, and a copy older than one a
 * mutation answered with is replaced again by the next pull.
 */
export async function applyServerChanges(
  db: LocalDb,
  kind: SyncKind,
  rows: readonly Entity[],
  deletedIds: readonly string[] = [],
): Promise<void> {
  const table = db.mirror(kindSpec(kind).table);
  const changed = await idsWithEntries(db, kind, [...rows.map((r) => r.id), ...deletedIds]);
  const plain: MirrorRow[] = [];
  for (const row of rows) {
    if (!changed.has(row.id)) {
      plain.push(row as MirrorRow);
      continue;
    }
    const current = await table.get(row.id);
    await rebuildTarget(db, kind, row.id, newerCopy(current ? baseOf(current) : null, row));
  }
  if (plain.length) await table.bulkPut(plain);
  const plainDeletes: string[] = [];
  for (const id of deletedIds) {
    if (changed.has(id)) await rebuildTarget(db, kind, id, null);
    else plainDeletes.push(id);
  }
  if (plainDeletes.length) await table.bulkDelete(plainDeletes);
}

/**
 * Drops rows the user can no longer read (GET /v2/sync/:kind/ids): every stored row not in `readable`,
 * except rows that exist only here (created offline, not yet on the server). Returns how many went.
 */
export async function dropUnreadable(
  db: LocalDb,
  kind: SyncKind,
  readable: ReadonlySet<string>,
): Promise<number> {
  const table = db.mirror(kindSpec(kind).table);
  const stored = (await table.toCollection().primaryKeys()) as string[];
  const unreadable = stored.filter((id) => !readable.has(id));
  const changed = await idsWithEntries(db, kind, unreadable);
  const gone = unreadable.filter((id) => !changed.has(id));
  await table.bulkDelete(gone);
  let dropped = gone.length;
  for (const id of unreadable.filter((i) => changed.has(i))) {
    const row = await table.get(id);
    if (row?.$base === null) continue; // created here, the server has not seen it yet
    await rebuildTarget(db, kind, id, null);
    dropped++;
  }
  return dropped;
}

/** Ids readable on the server that the mirror lacks (access gained without the row changing). */
export async function missingIds(
  db: LocalDb,
  kind: SyncKind,
  readable: readonly string[],
): Promise<string[]> {
  const table = db.mirror(kindSpec(kind).table);
  const present = new Set((await table.toCollection().primaryKeys()) as string[]);
  return readable.filter((id) => !present.has(id));
}
