// /v2/scan-orders: orders of a stain (pipeline) for a slide and studies. Created for the own
// organization with createOrganizationOrders; readable when assigned; a status may be changed only to
// active, only in the own organization (§4.5, §6.2).
import crypto from 'node:crypto';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams, listEnvelope } from '../../api/common';
import { ScanOrder } from '../../api/entities';
import { ScanOrderCreateBody, ScanOrderListQuery, ScanOrderPatchBody } from '../../api/orders';
import { SET_FIELDS } from '../../api/set-fields';
import { recordActivity } from '../activities/record';
import { readScopeSql } from '../db/read-scope-sql';
import { scanOrders } from '../db/schema';
import { notFound } from '../http/errors';
import { accessOf, assertCreate, assertReadable, assertUpdate, scopeOf } from '../http/guard';
import { orderOf, pageWindow } from '../catalog/order';
import { resolveSets, sameSet } from '../organizations/set-ops';
import { changedOnly } from '../organizations/validate';
import { sqlArray } from '../users/repository';
import { orderSubject, scanOrderScope, toScanOrder } from './entities';
import { checkOrderReferences } from './references';
import { insertScanOrder, updateScanOrder } from './repository';

const One = z.object({ result: ScanOrder });

export const scanOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const find = async (id: string) => (await db.select().from(scanOrders).where(eq(scanOrders.id, id)))[0];

  app.get(
    '/',
    { schema: { querystring: ScanOrderListQuery, response: { 200: listEnvelope(ScanOrder) } } },
    async (request) => {
      const q = request.query;
      const where: (SQL | undefined)[] = [readScopeSql(scopeOf(request, 'ScanOrder'), scanOrderScope)];
      if (q.status?.length) where.push(inArray(scanOrders.status, q.status));
      if (q.organizationId?.length) where.push(inArray(scanOrders.organizationId, q.organizationId));
      if (q.creatorUserId?.length) where.push(inArray(scanOrders.creatorUserId, q.creatorUserId));
      if (q.scanGroupId?.length) where.push(inArray(scanOrders.scanGroupId, q.scanGroupId));
      if (q.pipelineId?.length) where.push(inArray(scanOrders.pipelineId, q.pipelineId));
      if (q.studyId?.length) where.push(sql`${scanOrders.studyIds} && ${sqlArray(q.studyId)}`);
      if (q.id?.length) where.push(inArray(scanOrders.id, q.id));
      const filter = and(...where);
      const { limit, offset } = pageWindow(q);
      const columns = { createdAt: scanOrders.createdAt, updatedAt: scanOrders.updatedAt };
      const [rows, [{ count }]] = await Promise.all([
        db
          .select()
          .from(scanOrders)
          .where(filter)
          .orderBy(...orderOf(q, columns, scanOrders.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(scanOrders)
          .where(filter),
      ]);
      return { result: rows.map(toScanOrder), count: Number(count), page: q.page, limit: q.limit };
    },
  );

  app.get('/:id', { schema: { params: IdParams, response: { 200: One } } }, async (request) => {
    const row = await find(request.params.id);
    assertReadable(request, 'ScanOrder', row && orderSubject(row), 'Scan order');
    return { result: toScanOrder(row as NonNullable<typeof row>) };
  });

  app.post('/', { schema: { body: ScanOrderCreateBody, response: { 200: One } } }, async (request) => {
    const { actor } = accessOf(request);
    const body = request.body.scanOrder;
    const values = {
      id: crypto.randomUUID(),
      creatorUserId: body.creatorUserId ?? actor.userId,
      organizationId: body.organizationId ?? actor.orgId,
      status: 'inactive' as const,
      scanGroupId: body.scanGroupId ?? null,
      pipelineId: body.pipelineId,
      studyIds: [...new Set(body.studyIds ?? [])],
      notes: body.notes ?? '',
      assigneeUserIds: [...new Set(body.assigneeUserIds ?? [])],
      assigneeOrgIds: [...new Set(body.assigneeOrgIds ?? [])],
      inheritedAssignees: [],
    };
    assertCreate(request, 'ScanOrder', values, Object.keys(body));
    await checkOrderReferences(db, request, values);
    const row = await db.transaction(async (tx) => {
      const created = await insertScanOrder(tx, values);
      await recordActivity(tx, {
        actionType: 'create',
        reference: 'ScanOrder',
        referenceId: created.id,
        diff: body,
        creatorUserId: actor.userId,
        organizationId: created.organizationId,
      });
      return created;
    });
    return { result: toScanOrder(row) };
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: ScanOrderPatchBody, response: { 200: One } } },
    async (request) => {
      const { actor } = accessOf(request);
      const found = await find(request.params.id);
      assertReadable(request, 'ScanOrder', found && orderSubject(found), 'Scan order');
      const row = await db.transaction(async (tx) => {
        const [stored] = await tx
          .select()
          .from(scanOrders)
          .where(eq(scanOrders.id, request.params.id))
          .for('update');
        if (!stored) throw notFound('Scan order');
        const {
          studyIds: _s,
          assigneeUserIds: _u,
          assigneeOrgIds: _o,
          ...scalars
        } = request.body.scanOrder ?? {};
        const sets = resolveSets(SET_FIELDS.scanOrders, stored, request.body.scanOrder ?? {}, request.body);
        const patch = changedOnly(stored, scalars);
        for (const f of SET_FIELDS.scanOrders) {
          const next = sets[f];
          if (next && !sameSet(next, stored[f])) patch[f] = next;
        }
        if (Object.keys(patch).length === 0) return stored;
        assertUpdate(request, 'ScanOrder', orderSubject(stored), patch);
        await checkOrderReferences(tx, request, patch);
        const updated = await updateScanOrder(tx, stored.id, { ...patch, updatedAt: new Date() });
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'ScanOrder',
          referenceId: stored.id,
          diff: patch,
          creatorUserId: actor.userId,
          organizationId: stored.organizationId,
        });
        return updated;
      });
      return { result: toScanOrder(row) };
    },
  );
};
