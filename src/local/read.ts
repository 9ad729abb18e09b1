// Reading the mirror for pages: rows come back checked and repaired (restore.ts), with their
// pending/failed markers; a repaired row asks for a full pull of its kind so the server's copy
// replaces it. Also the outbox summary and the small values the sync status shows.
import Dexie, { liveQuery } from 'dexie';
import type { SyncKind } from '../api/sync';
import type { LocalDb, MirrorRow, OutboxEntry } from './db';
import { movedKey } from './effects';
import { kindSpec } from './kinds';
import { listEntries } from './outbox';
import { restoreRow, type Local } from './restore';

export interface ReadOptions {
  /** An indexed field to order by (KindSpec.indexes); default: the primary key. */
  orderBy?: string;
  reverse?: boolean;
  offset?: number;
  limit?: number;
  /** Applied to stored rows before offset/limit. */
  where?: (row: MirrorRow) => boolean;
}

async function markResync(db: LocalDb, kind: SyncKind): Promise<void> {
  await db.cursors.update(kind, { resync: true }).catch(() => undefined);
}

function restoreAll<T>(db: LocalDb, kind: SyncKind, raws: readonly unknown[]): Local<T>[] {
  const spec = kindSpec(kind);
  const out: Local<T>[] = [];
  let damaged = false;
  for (const raw of raws) {
    const restored = restoreRow<T>(spec, raw);
    if (!restored) {
      damaged ||= !!raw && !(raw as MirrorRow).$hidden;
      continue;
    }
    damaged ||= restored.repaired;
    out.push(restored.row);
  }
  // Outside the read transaction: a liveQuery must not write.
  if (damaged) setTimeout(() => void markResync(db, kind), 0);
  return out;
}

/**
 * The stored rows of a kind that are visible and pass `where`, in order, unchecked: one getAll (what
 * Dexie uses for a collection without a filter), which costs far less than a cursor stepping row by
 * row and so holds the read transaction (which the outbox replay's writes wait behind) that much
 * shorter.
 */
function passingRows(db: LocalDb, kind: SyncKind, opts: ReadOptions): Promise<MirrorRow[]> {
  // Dexie's own promise, not an async function's: a live query follows the reads a page makes after
  // this one only while every await is on a Dexie promise (an extra native one loses its tracking).
  return collectionOf(db, kind, opts)
    .toArray()
    .then((rows) => rows.filter(passes(opts)));
}

/** Visible (not a pending delete) and kept by `where`. */
const passes =
  ({ where }: ReadOptions) =>
  (r: MirrorRow) =>
    !r.$hidden && (!where || where(r));

function collectionOf(db: LocalDb, kind: SyncKind, opts: ReadOptions) {
  const table = db.mirror(kindSpec(kind).table);
  const coll = opts.orderBy ? table.orderBy(opts.orderBy) : table.toCollection();
  return opts.reverse ? coll.reverse() : coll;
}

/** Rows of a kind, visible ones only, checked. */
export async function readRows<T>(db: LocalDb, kind: SyncKind, opts: ReadOptions = {}): Promise<Local<T>[]> {
  if (opts.limit === undefined) {
    const rows = await passingRows(db, kind, opts);
    return restoreAll<T>(db, kind, opts.offset ? rows.slice(opts.offset) : rows);
  }
  // A limited read stops early: a cursor that reads no further than the rows it keeps.
  let coll = collectionOf(db, kind, opts).filter(passes(opts));
  if (opts.offset) coll = coll.offset(opts.offset);
  return restoreAll<T>(db, kind, await coll.limit(opts.limit).toArray());
}

/**
 * One page of the visible rows that pass `where`, and how many pass in all. Only the page's rows are
 * checked and restored: a list of 10 out of 10,000 mirrored rows restores 10, where readRows would
 * restore all of them. Without `where` (a list's default view) not even the stored rows are all read:
 * the page is read along the sort's index with offset and limit, and counted by index (indexedPage).
 */
export function readPage<T>(
  db: LocalDb,
  kind: SyncKind,
  opts: ReadOptions & { limit: number },
): Promise<{ rows: Local<T>[]; count: number }> {
  const offset = opts.offset ?? 0;
  const page = opts.where
    ? passingRows(db, kind, opts).then((passing) => ({
        rows: passing.slice(offset, offset + opts.limit),
        count: passing.length,
      }))
    : indexedPage(db, kind, { ...opts, offset });
  return page.then(({ rows, count }) => ({ rows: restoreAll<T>(db, kind, rows), count }));
}

/** Whether IndexedDB indexes this value (a row whose sort field is not a key is not in its index). */
const isKey = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && !Number.isNaN(v));

/**
 * The visible rows of one page in the sort's index order, reading only that page (and the rows hidden
 * by a pending delete, which are few): the same rows and count as filtering every stored row.
 * Dexie's promises throughout (see passingRows).
 */
function indexedPage(
  db: LocalDb,
  kind: SyncKind,
  opts: ReadOptions & { limit: number; offset: number },
): Promise<{ rows: MirrorRow[]; count: number }> {
  const table = db.mirror(kindSpec(kind).table);
  const inIndex = (r: MirrorRow) => !opts.orderBy || isKey(r[opts.orderBy]);
  const stored = opts.orderBy ? table.orderBy(opts.orderBy).count() : table.count();
  return Dexie.Promise.all([stored, table.where('$hidden').equals(1).toArray()]).then(([all, hidden]) => {
    const hiddenInIndex = hidden.filter(inIndex).length;
    // Hidden rows in the way: step past them with a cursor (it still stops at the page's end).
    let coll = collectionOf(db, kind, opts);
    if (hiddenInIndex) coll = coll.filter((r) => !r.$hidden);
    if (opts.offset) coll = coll.offset(opts.offset);
    return coll
      .limit(opts.limit)
      .toArray()
      .then((rows) => ({ rows, count: all - hiddenInIndex }));
  });
}

/** Visible rows whose indexed `field` equals `value`, or any of `values` (an index lookup), checked. */
export async function readRowsWhere<T>(
  db: LocalDb,
  kind: SyncKind,
  field: string,
  value: string | readonly string[],
): Promise<Local<T>[]> {
  const index = db.mirror(kindSpec(kind).table).where(field);
  const raws = await (typeof value === 'string' ? index.equals(value) : index.anyOf([...value])).toArray();
  return restoreAll<T>(
    db,
    kind,
    raws.filter((r) => !r.$hidden),
  );
}

/** How many visible rows match; without `where` it counts by index and reads no row. */
export async function countRows(
  db: LocalDb,
  kind: SyncKind,
  where?: (row: MirrorRow) => boolean,
): Promise<number> {
  const table = db.mirror(kindSpec(kind).table);
  if (!where) {
    const [all, hidden] = await Promise.all([table.count(), table.where('$hidden').equals(1).count()]);
    return all - hidden;
  }
  return table.filter((r) => !r.$hidden && where(r)).count();
}

export { movedKey };

/** Whether the kind was pulled to its end at least once here: before that, an empty table says nothing. */
export async function pulledOnce(db: LocalDb, kind: SyncKind): Promise<boolean> {
  return !!(await db.cursors.get(kind))?.syncedAt;
}

/** One row by id; a temporary id the server has since replaced leads to the row under its new id. */
export async function readRow<T>(db: LocalDb, kind: SyncKind, id: string): Promise<Local<T> | undefined> {
  const raw = await db.mirror(kindSpec(kind).table).get(id);
  if (raw) return restoreAll<T>(db, kind, [raw])[0];
  const moved = (await db.meta.get(movedKey(kind, id)))?.value;
  return typeof moved === 'string' && moved !== id ? readRow<T>(db, kind, moved) : undefined;
}

export interface OutboxSummary {
  pending: number;
  failed: OutboxEntry[];
}

/** Counts by index; only the failed entries (few, shown one by one) are read. */
export async function outboxSummary(db: LocalDb): Promise<OutboxSummary> {
  const [pending, failed] = await Promise.all([
    db.outbox.where('state').equals('pending').count(),
    db.outbox.where('state').notEqual('pending').sortBy('seq'),
  ]);
  return { pending, failed };
}

/** Checks every entry (damaged ones become failed); call once at start, outside live queries. */
export const checkOutbox = listEntries;

export async function lastSyncedAt(db: LocalDb): Promise<string | undefined> {
  const value = (await db.meta.get('lastSyncedAt'))?.value;
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined;
}

/**
 * Runs `query` now and again whenever the tables it read change (in this tab, another tab or the
 * service worker). The first answer is passed on at once; after that, answers come at most every
 * `throttleMs`: on a change inside the window the live query is dropped and started again when the
 * window ends (it then reads the state as it is), so a replay of a thousand entries neither re-runs
 * the query nor re-renders the page a thousand times. Returns the unsubscribe function.
 */
export function observe<T>(
  query: () => Promise<T>,
  next: (value: T) => void,
  error: (error: unknown) => void = () => undefined,
  throttleMs = 0,
): () => void {
  let last = -Infinity;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sub: { unsubscribe(): void } | undefined;
  const start = () => {
    timer = undefined;
    if (closed) return;
    sub = liveQuery(query).subscribe({
      next: (value) => {
        const wait = last + throttleMs - Date.now();
        if (wait <= 0) {
          last = Date.now();
          next(value);
          return;
        }
        sub?.unsubscribe();
        sub = undefined;
        timer ??= setTimeout(start, wait);
      },
      error,
    });
  };
  start();
  return () => {
    closed = true;
    clearTimeout(timer);
    sub?.unsubscribe();
  };
}

/**
 * Makes the mirror belong to `userId`: when another user's data is stored, the mirror, cursors and
 * caches are cleared (their outbox entries stay, tagged with their user, until they sign in again).
 */
export async function prepareForUser(db: LocalDb, userId: string): Promise<void> {
  const owner = (await db.meta.get('mirrorUserId'))?.value;
  if (owner === userId) return;
  const mirrorTables = db.tables.filter((t) => !['session', 'outbox', 'meta'].includes(t.name));
  await db.transaction('rw', [...mirrorTables, db.meta], async () => {
    for (const table of mirrorTables) await table.clear();
    await db.meta.clear();
    await db.meta.put({ key: 'mirrorUserId', value: userId });
  });
}
