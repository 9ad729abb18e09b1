// The local store (Dexie over IndexedDB): the signed-in session, the mirror of every synced kind, the
// pull cursors, the outbox of changes not yet on the server, and small key/values. Only src/local
// touches Dexie (STYLE §1). Schema changes add a version; never edit an old one (browsers upgrade
// from whatever version they hold).
import Dexie, { type EntityTable, type Table } from 'dexie';
import type { Me } from '../api/auth';
import type { SyncKind } from '../api/sync';
import { KIND_SPECS, type MirrorTable } from './kinds';

export interface StoredSession {
  key: 'current';
  me: Me;
  /** ISO expiry of the access token; the tokens themselves live in httpOnly cookies. */
  accessExpires: string;
  refreshExpires: string;
  savedAt: string;
  /** The server's clock minus the device's when last measured (ms), for planning refreshes offline. */
  clockOffsetMs?: number;
  /** When a tab last refreshed the tokens (device time), so other tabs do not refresh again. */
  refreshedAt?: string;
}

/**
 * A mirrored entity as stored. Rows the server sent are stored as they came. A row that has local
 * changes in the outbox also carries `$base` (the server's last copy, or null for a row created here
 * and not yet on the server), `$pending` (how many outbox entries are still to send for it) and
 * `$failed` (the server's message for the latest refused change, which was rolled back).
 * Invariant: `$base` is present exactly when an outbox entry (pending or failed) targets the row.
 */
export type MirrorRow = Record<string, unknown> & {
  id: string;
  $base?: Record<string, unknown> | null;
  $pending?: number;
  $failed?: string;
  /** 1 while the row is gone locally (pending delete, failed create) but its base must be kept. */
  $hidden?: number;
};

export type OutboxMethod = 'POST' | 'PATCH' | 'PUT' | 'DELETE';
/** pending: to send (again); failed: the server refused it (4xx), kept until retried or discarded. */
export type OutboxState = 'pending' | 'failed';

export interface OutboxEntry {
  /** A uuid, sent as the Idempotency-Key: the server applies each entry at most once. */
  id: string;
  /** Order of creation across tabs and the service worker: replay goes strictly by it. */
  seq: number;
  method: OutboxMethod;
  /** Under /v2, e.g. '/studies/<id>'. Rewritten when a temporary id gets its server id. */
  path: string;
  body?: unknown;
  /** updatedAt of the server copy the change was made on (null for creates); kept for diagnosis. */
  baseVersion: string | null;
  /** ISO time the user made the change. */
  createdAt: string;
  attempts: number;
  state: OutboxState;
  /** '<kind>:<id>' of the mirrored row this changes, when it changes one. */
  target?: string;
  /** Local-only fields a create shows until the server's copy arrives (creator, dates…). */
  preview?: Record<string, unknown>;
  /** Whose change this is: replayed only while that user is signed in. */
  userId?: string;
  /** The server's message (§8 extraction) for a failed entry; the last transient error otherwise. */
  error?: string;
  /** HTTP status of the last answer, 0 for a network failure. */
  status?: number;
  /** Epoch ms before which a transient failure is not retried (backoff). */
  nextAttemptAt?: number;
  /** Every id (uuid) the target, path or body mentions: indexed, see refsOf. */
  refs?: string[];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The ids an entry mentions, lower-case, once each. */
export function refsOf(entry: Pick<OutboxEntry, 'target' | 'path' | 'body'>): string[] {
  const text = `${entry.target ?? ''} ${entry.path} ${entry.body === undefined ? '' : JSON.stringify(entry.body)}`;
  return [...new Set((text.match(UUID) ?? []).map((id) => id.toLowerCase()))];
}

export interface SyncCursor {
  kind: SyncKind;
  /** Opaque: handed back to GET /v2/sync/:kind as is. */
  cursor: string;
  /** ISO time of the last completed pull of this kind. */
  syncedAt?: string;
  /** Set when the mirror of this kind must be pulled again from the start (damaged rows, lost rows). */
  resync?: boolean;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

/** The mirror's indexes as versions 2–4 declared them (frozen: browsers upgrade from these). */
const V2_INDEXES: Record<MirrorTable, string> = {
  studies: 'updatedAt, createdAt, name, organizationId',
  scanGroups: 'updatedAt, createdAt, simpleId, organizationId, lastUploadDate',
  images: 'updatedAt, createdAt, scanGroupId',
  scanOrders: 'updatedAt, createdAt, status',
  scanOrderLists: 'updatedAt, createdAt, status',
  reviews: 'updatedAt, reviewGroupUUID, imageId',
  reviewGroups: 'updatedAt',
  organizations: 'name, parentId',
  users: 'updatedAt, organizationId',
  organs: 'updatedAt, name',
  pipelines: 'updatedAt, name',
  predictors: 'updatedAt, name',
  reactions: 'updatedAt, referenceId',
};

export class LocalDb extends Dexie {
  session!: EntityTable<StoredSession, 'key'>;
  outbox!: EntityTable<OutboxEntry, 'id'>;
  cursors!: EntityTable<SyncCursor, 'kind'>;
  meta!: EntityTable<MetaRow, 'key'>;
  studies!: Table<MirrorRow, string>;
  scanGroups!: Table<MirrorRow, string>;
  images!: Table<MirrorRow, string>;
  scanOrders!: Table<MirrorRow, string>;
  scanOrderLists!: Table<MirrorRow, string>;
  reviews!: Table<MirrorRow, string>;
  reviewGroups!: Table<MirrorRow, string>;
  organizations!: Table<MirrorRow, string>;
  users!: Table<MirrorRow, string>;
  organs!: Table<MirrorRow, string>;
  pipelines!: Table<MirrorRow, string>;
  predictors!: Table<MirrorRow, string>;
  reactions!: Table<MirrorRow, string>;

  constructor(name = 'tessera') {
    super(name);
    this.version(1).stores({ session: 'key' });
    // Version 2: the mirror, cursors, outbox and meta. The session table is unchanged.
    const mirror = Object.fromEntries(KIND_SPECS.map((s) => [s.table, `id, ${V2_INDEXES[s.table]}`]));
    this.version(2).stores({
      ...mirror,
      outbox: 'id, seq, target, state',
      cursors: 'kind',
      meta: 'key',
    });
    // Version 3: rows hidden by a pending delete or failed create are indexed, so lists count the
    // visible rows without reading every row.
    this.version(3).stores(
      Object.fromEntries(KIND_SPECS.map((s) => [s.table, `id, ${V2_INDEXES[s.table]}, $hidden`])),
    );
    // Version 4: each entry lists the ids it mentions (`refs`), so the entries to rewrite when a
    // temporary id gets its server id are found by index, not by reading the whole outbox.
    this.version(4)
      .stores({ outbox: 'id, seq, target, state, *refs' })
      .upgrade((tx) =>
        tx
          .table('outbox')
          .toCollection()
          .modify((entry: OutboxEntry) => {
            entry.refs = refsOf(entry);
          }),
      );
    // Version 5: the mirror keeps only the indexes something reads by (KindSpec.indexes): every index
    // is written with each stored row, and the first sync of 10,000 slides is bound by those writes.
    this.version(5).stores(
      Object.fromEntries(
        KIND_SPECS.filter((s) => s.indexes !== V2_INDEXES[s.table]).map((s) => [
          s.table,
          `id, ${s.indexes}, $hidden`,
        ]),
      ),
    );
  }

  mirror(table: MirrorTable): Table<MirrorRow, string> {
    return this[table];
  }
}

let instance: LocalDb | undefined;
/** The app's one local database (tests make their own with a fresh IDBFactory). */
export function localDb(): LocalDb {
  instance ??= new LocalDb();
  return instance;
}
