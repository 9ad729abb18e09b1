// GET /v2/sync/:kind (changes since a cursor) and /v2/sync/:kind/ids (what is readable now).
import { and, asc, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SYNC_KINDS, SyncIds, SyncPage, SyncQuery, type SyncKind } from '../../api/sync';
import type { Db } from '../db/client';
import { tombstones } from '../db/schema';
import { readScopeSql } from '../db/read-scope-sql';
import { apiError } from '../http/errors';
import { scopeOf } from '../http/guard';
import type { SyncSource } from './kinds';

/** The cursor is the last change sequence number seen, as a decimal string. */
function decodeCursor(raw: string | undefined): number {
  if (!raw) return 0;
  if (!/^\d{1,18}$/.test(raw)) throw apiError('BAD_CURSOR');
  return Number(raw);
}

/**
 * The exclusive upper bound of change sequence numbers that may be handed out now: below the lowest
 * number any transaction still in flight holds (migration 0008_sync_floor), so a row that took a
 * lower number but commits later is never skipped by a cursor that moved past it.
 */
export async function changeSeqFloor(db: Db): Promise<number> {
  const result = await db.execute(sql`SELECT change_seq_floor() AS floor`);
  // Both drivers (node-postgres, PGlite) answer `{ rows }`; bigint comes back as a string.
  const [row] = (result as unknown as { rows: Array<{ floor: string | number }> }).rows;
  return Number(row.floor);
}

const readableOf = (request: FastifyRequest, source: SyncSource): SQL | undefined =>
  source.readable ? source.readable(request) : readScopeSql(scopeOf(request, source.type), source.scope);

const Params = z.object({ kind: z.enum(SYNC_KINDS) });

export interface SyncRoutesOptions {
  /** Every mirrored kind (src/server/sync-sources.ts). */
  sources: readonly SyncSource[];
}

export const syncRoutes: FastifyPluginAsyncZod<SyncRoutesOptions> = async (app, { sources }) => {
  const { db } = app.ctx;
  const byKind = new Map(sources.map((s) => [s.kind, s]));
  // A kind the app mirrors but the feed cannot serve is a wiring mistake: refuse to start.
  const missing = SYNC_KINDS.filter((kind) => !byKind.has(kind));
  if (missing.length) throw new Error(`The sync feed has no source for ${missing.join(', ')}`);
  const sourceOf = (kind: SyncKind) => {
    const source = byKind.get(kind);
    if (!source) throw apiError('NOT_SYNCABLE', { kind });
    return source;
  };

  app.get(
    '/:kind',
    { schema: { params: Params, querystring: SyncQuery, response: { 200: SyncPage } } },
    async (request) => {
      const source = sourceOf(request.params.kind);
      const cursor = decodeCursor(request.query.cursor);
      // Taken before the rows are read: whatever commits in between is above it, or visible.
      const floor = await changeSeqFloor(db);
      const where: SQL[] = [gt(source.changeSeqColumn, cursor), lt(source.changeSeqColumn, floor)];
      const scope = readableOf(request, source);
      if (scope) where.push(scope);
      const limit = request.query.limit;
      const rows = (await db
        .select()
        .from(source.table)
        .where(and(...where))
        .orderBy(asc(source.changeSeqColumn))
        .limit(limit + 1)) as Array<Record<string, unknown> & { changeSeq: number }>;
      const page = rows.slice(0, limit);
      const deleted = await db
        .select({ id: tombstones.id, seq: tombstones.changeSeq })
        .from(tombstones)
        .where(
          and(
            eq(tombstones.kind, source.kind),
            gt(tombstones.changeSeq, cursor),
            lt(tombstones.changeSeq, floor),
          ),
        )
        .orderBy(asc(tombstones.changeSeq))
        .limit(limit);
      // Never move past a tombstone we have not reported, nor past a row we have not sent.
      const lastRow = page.length ? page[page.length - 1].changeSeq : undefined;
      const lastDeleted = deleted.length ? deleted[deleted.length - 1].seq : undefined;
      const hasMore = rows.length > limit || deleted.length === limit;
      const candidates = [lastRow, lastDeleted].filter((n): n is number => n !== undefined);
      let next = candidates.length ? Math.max(...candidates) : cursor;
      if (hasMore && lastRow !== undefined && lastDeleted !== undefined)
        next = Math.min(lastRow, lastDeleted);
      const sent = page.filter((r) => r.changeSeq <= next);
      return {
        result: await source.toEntities(db, sent, request),
        deletedIds: deleted.filter((d) => d.seq <= next).map((d) => d.id),
        cursor: String(next),
        hasMore: hasMore || sent.length < page.length,
      };
    },
  );

  app.get('/:kind/ids', { schema: { params: Params, response: { 200: SyncIds } } }, async (request) => {
    const source = sourceOf(request.params.kind);
    const rows = await db
      .select({ id: source.idColumn })
      .from(source.table)
      .where(readableOf(request, source));
    return { ids: rows.map((r) => String(r.id)) };
  });
};
