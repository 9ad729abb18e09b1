// Exact list counts without counting every readable row on every request (bench/README.md, api-lists).
//
// A list's `count` depends only on its count statement (scope and filters are its text and parameters)
// and on the rows of the tables it reads. Those rows change only by commits, and every commit that
// inserts, updates or deletes one takes a change sequence number: the bump_change_seq trigger numbers
// inserted and updated rows, and a deletion writes a tombstone, numbered the same way. So the
// *version* of a set of tables — the highest number among their rows and their tombstones — moves
// whenever their rows do, with one exception: a transaction that took a number below that highest one
// and commits later (numbers are handed out at write time, not at commit). A count is therefore kept
// only when no transaction still in flight can hold such a number: the lowest number any of them
// holds (change_seq_floor(), migration 0008) is read *before* the count, and the count is kept only
// when the version it saw is below that floor. Every transaction the count did not see then commits
// numbers above the version, and a later request sees a different version and counts again.
//
// The version is read in the same statement as the page (one snapshot), so a count served from here
// is the exact count of the rows that page was cut from (lists/page-statement.ts).
import type { SyncKind } from '../../api/sync';
import type { Db } from '../db/client';
import { changeSeqFloor } from '../sync/routes';

/** A table a list reads, named by its tombstone kind as list_version (migration 0018) knows it. */
export type VersionedTable = Extract<SyncKind, 'scan-groups' | 'studies'>;

/** The versioned tables of the scan-group and study lists. */
export const SCAN_GROUPS_VERSION: VersionedTable = 'scan-groups';
export const STUDIES_VERSION: VersionedTable = 'studies';

/** Counts kept per database (so two apps in one process, as in the tests, never share one). */
const ENTRIES_KEPT = 2000;
const caches = new WeakMap<Db, Map<string, { version: number; count: number }>>();
const lastCounts = new WeakMap<Db, Map<string, number>>();

function mapOf<V>(maps: WeakMap<Db, Map<string, V>>, db: Db): Map<string, V> {
  let map = maps.get(db);
  if (!map) maps.set(db, (map = new Map()));
  return map;
}
const cacheOf = (db: Db) => mapOf(caches, db);

/** Sets a key, dropping the oldest entry when the map is full (a Map iterates in insertion order). */
function keep<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= ENTRIES_KEPT) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/**
 * A count's key: its statement's condition (scope and filters, text and parameters) on its table; the
 * rest of the count statement is the same for every count of the table.
 */
export const countKey = (table: string, cond: { sql: string; params: unknown[] }): string =>
  `${table}\u0000${cond.sql}\u0000${JSON.stringify(cond.params)}`;

/**
 * The count last answered for a key, whatever the tables' version since: how large its match set
 * was, a hint for the shape of the next statement (lists/page-statement.ts), never an answer.
 */
export const lastCount = (db: Db, key: string): number | undefined => lastCounts.get(db)?.get(key);

export function noteCount(db: Db, key: string, count: number): void {
  keep(mapOf(lastCounts, db), key, count);
}

/**
 * The version of the tables as one bigint, as SQL text: list_version (migration 0018) probes each
 * table's change_seq index and its tombstones'; 0 when they are empty. A function, so that a statement
 * planned for each request does not plan these probes each time.
 */
export function versionText(tables: readonly VersionedTable[]): string {
  const parts = tables.map((t) => `list_version('${t}')`);
  return parts.length === 1 ? parts[0] : `greatest(${parts.join(', ')})`;
}

/** The count kept for a key (countKey) while the tables' version is the one it was counted at. */
export function cachedCount(db: Db, key: string, version: number): number | undefined {
  const entry = cacheOf(db).get(key);
  return entry && entry.version === version ? entry.count : undefined;
}

/**
 * Runs `count` (which answers the count and the version in one statement) and keeps its answer when
 * no transaction in flight could still commit below the version it saw.
 */
export async function countAndKeep(
  db: Db,
  key: string,
  count: () => Promise<{ count: number; version: number }>,
): Promise<number> {
  const floor = await changeSeqFloor(db);
  const answer = await count();
  if (answer.version < floor) keep(cacheOf(db), key, { version: answer.version, count: answer.count });
  return answer.count;
}
