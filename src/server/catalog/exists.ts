// Existence checks of referenced ids (organId, predictorIds, assigneeOrgIds, ...) before a write, so
// that a dangling reference is a 400 naming the field rather than a row pointing at nothing.
import { inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import type { HttpError } from '../http/errors';

/** The first of `ids` with no row in `table`, or undefined when all exist. */
export async function firstMissing(
  db: Db,
  table: PgTable,
  idColumn: PgColumn,
  ids: readonly string[],
): Promise<string | undefined> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return undefined;
  const rows = (await db.select({ id: idColumn }).from(table).where(inArray(idColumn, wanted))) as {
    id: string;
  }[];
  const found = new Set(rows.map((r) => r.id));
  return wanted.find((id) => !found.has(id));
}

/** Throws `refusal(id)` (a 400 naming the field) when any of `ids` does not exist. */
export async function assertExist(
  db: Db,
  table: PgTable,
  idColumn: PgColumn,
  ids: readonly string[] | null | undefined,
  refusal: (id: string) => HttpError,
): Promise<void> {
  const missing = await firstMissing(db, table, idColumn, ids ?? []);
  if (missing !== undefined) throw refusal(missing);
}
