// What the sync feed needs of a mirrored kind: its table, subject type, read-scope columns and how a
// row becomes the API entity. Each resource folder describes its kinds; src/server/sync-sources.ts
// lists them all for the feed.
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { SubjectType } from '../../access';
import type { SyncKind } from '../../api/sync';
import type { Db } from '../db/client';
import type { ScopeColumns } from '../db/read-scope-sql';

export interface SyncSource {
  kind: SyncKind;
  type: SubjectType;
  /** Rows must have `id` and `changeSeq` properties (the cursor is taken from changeSeq). */
  table: PgTable;
  idColumn: PgColumn;
  changeSeqColumn: PgColumn;
  scope: ScopeColumns;
  /** When set, what the caller may read of `table`, instead of the read scope on `scope`. */
  readable?(request: FastifyRequest): SQL | undefined;
  /** Rows of `table` → API entities as this caller sees them (may batch-load related data). */
  toEntities(
    db: Db,
    rows: Record<string, unknown>[],
    request: FastifyRequest,
  ): Promise<Record<string, unknown>[]>;
}

/** Records that a row is gone, so mirrors drop it on their next pull. */
export async function recordDeletion(db: Db, kind: SyncKind, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const { tombstones } = await import('../db/schema');
  await db.insert(tombstones).values(ids.map((id) => ({ kind, id })));
}
