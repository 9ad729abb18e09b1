// Checks that the rows an order names exist and are readable by the caller: a slide, pipeline, study
// or order the caller cannot see is answered like one that does not exist (400 naming the field).
import { and, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { SubjectType } from '../../access';
import type { Db } from '../db/client';
import { readScopeSql, type ScopeColumns } from '../db/read-scope-sql';
import { organizations, pipelines, scanGroups, scanOrders, studies, users } from '../db/schema';
import { apiError, type HttpError } from '../http/errors';
import { scopeOf } from '../http/guard';
import { assertExist } from '../catalog/exists';
import { scanOrderScope } from './entities';

const assigned = (t: typeof scanGroups | typeof studies): ScopeColumns => ({
  organizationId: t.organizationId,
  creatorUserId: t.creatorUserId,
  assigneeUserIds: t.assigneeUserIds,
  assigneeOrgIds: t.assigneeOrgIds,
  inheritedAssignees: t.inheritedAssignees,
});

async function assertReadableIds(
  db: Db,
  request: FastifyRequest,
  target: { type: SubjectType; table: PgTable; id: PgColumn; scope: ScopeColumns },
  ids: readonly string[] | null | undefined,
  refusal: (id: string) => HttpError,
): Promise<void> {
  const wanted = [...new Set(ids ?? [])];
  if (wanted.length === 0) return;
  const rows = (await db
    .select({ id: target.id })
    .from(target.table)
    .where(and(inArray(target.id, wanted), readScopeSql(scopeOf(request, target.type), target.scope)))) as {
    id: string;
  }[];
  const found = new Set(rows.map((r) => r.id));
  const missing = wanted.find((id) => !found.has(id));
  if (missing !== undefined) throw refusal(missing);
}

export interface OrderReferences {
  scanGroupId?: string | null;
  pipelineId?: string | null;
  studyIds?: string[];
  scanOrderIds?: string[];
  assigneeUserIds?: string[];
  assigneeOrgIds?: string[];
}

/** Checks every reference present in `refs` (absent ones are left as they are). */
export async function checkOrderReferences(db: Db, request: FastifyRequest, refs: OrderReferences) {
  const one = (v: string | null | undefined) => (v ? [v] : []);
  await assertReadableIds(
    db,
    request,
    { type: 'ScanGroup', table: scanGroups, id: scanGroups.id, scope: assigned(scanGroups) },
    one(refs.scanGroupId),
    () => apiError('NO_SUCH_SLIDE'),
  );
  await assertReadableIds(
    db,
    request,
    {
      type: 'Pipeline',
      table: pipelines,
      id: pipelines.id,
      scope: { assigneeOrgIds: pipelines.assigneeOrgIds },
    },
    one(refs.pipelineId),
    () => apiError('NO_SUCH_PIPELINE'),
  );
  await assertReadableIds(
    db,
    request,
    { type: 'Study', table: studies, id: studies.id, scope: assigned(studies) },
    refs.studyIds,
    (id) => apiError('NO_SUCH_STUDY', { id }),
  );
  await assertReadableIds(
    db,
    request,
    { type: 'ScanOrder', table: scanOrders, id: scanOrders.id, scope: scanOrderScope },
    refs.scanOrderIds,
    (id) => apiError('NO_SUCH_SCAN_ORDER', { id }),
  );
  // Assignees only need to exist: sharing with someone is how they come to read the order.
  await assertExist(db, users, users.id, refs.assigneeUserIds, (id) =>
    apiError('NO_SUCH_ASSIGNEE_USER', { id }),
  );
  await assertExist(db, organizations, organizations.id, refs.assigneeOrgIds, (id) =>
    apiError('NO_SUCH_ORGANIZATION', { field: 'assigneeOrgIds', id }),
  );
}
