// Slides a study request adds: readable by the caller and not archived (§4.2). Beside the studies
// routes, the one caller, so the shared value checks (edits/checks.ts) need nothing of scan-groups.
import { and, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { readScopeSql } from '../db/read-scope-sql';
import { scanGroups } from '../db/schema';
import { apiError } from '../http/errors';
import { scopeOf } from '../http/guard';
import { scanGroupScope } from '../scan-groups/repository';

/** Slides to add to a study: readable by the caller, and not archived (§4.2). */
export async function assertAddableSlides(
  db: Db,
  request: FastifyRequest,
  ids: readonly string[],
  prefix: string,
): Promise<void> {
  if (!ids.length) return;
  const rows = await db
    .select({ id: scanGroups.id, storageStatus: scanGroups.storageStatus })
    .from(scanGroups)
    .where(
      and(inArray(scanGroups.id, [...ids]), readScopeSql(scopeOf(request, 'ScanGroup'), scanGroupScope)),
    );
  if (rows.length !== ids.length) throw apiError('SLIDE_UNAVAILABLE', { field: `${prefix}.scanGroupIds` });
  if (rows.some((r) => r.storageStatus !== 'active')) throw apiError('ARCHIVED_SLIDE_IN_STUDY');
}
