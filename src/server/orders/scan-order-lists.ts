// /v2/scan-order-lists: orders gathered into a list (active, pending, history), created active by a
// user with createOrganizationOrders for the own organization; its creator manages its contents.
import crypto from 'node:crypto';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams, listEnvelope } from '../../api/common';
import { ScanOrderList } from '../../api/entities';
import { ScanOrderListCreateBody, ScanOrderListListQuery, ScanOrderListPatchBody } from '../../api/orders';
import { SET_FIELDS } from '../../api/set-fields';
import { recordActivity } from '../activities/record';
import { readScopeSql } from '../db/read-scope-sql';
import { scanOrderLists } from '../db/schema';
import { notFound } from '../http/errors';
import { accessOf, assertCreate, assertReadable, assertUpdate, scopeOf } from '../http/guard';
import { orderOf, pageWindow } from '../catalog/order';
import { resolveSets, sameSet } from '../organizations/set-ops';
import { changedOnly } from '../organizations/validate';
import { sqlArray } from '../users/repository';
import { orderSubject, scanOrderListScope, toScanOrderList } from './entities';
import { activateListed } from './follow';
import { checkOrderReferences } from './references';
import { insertScanOrderList, updateScanOrderList } from './repository';

const One = z.object({ result: ScanOrderList });
const toDate = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null ? null : new Date(v);

export const scanOrderListRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const find = async (id: string) =>
    (await db.select().from(scanOrderLists).where(eq(scanOrderLists.id, id)))[0];

  app.get(
    '/',
    { schema: { querystring: ScanOrderListListQuery, response: { 200: listEnvelope(ScanOrderList) } } },
    async (request) => {
      const q = request.query;
      const where: (SQL | undefined)[] = [
        readScopeSql(scopeOf(request, 'ScanOrderList'), scanOrderListScope),
      ];
      if (q.status?.length) where.push(inArray(scanOrderLists.status, q.status));
      if (q.organizationId?.length) where.push(inArray(scanOrderLists.organizationId, q.organizationId));
      if (q.creatorUserId?.length) where.push(inArray(scanOrderLists.creatorUserId, q.creatorUserId));
      if (q.scanOrderId?.length)
        where.push(sql`${scanOrderLists.scanOrderIds} && ${sqlArray(q.scanOrderId)}`);
      if (q.id?.length) where.push(inArray(scanOrderLists.id, q.id));
      const filter = and(...where);
      const { limit, offset } = pageWindow(q);
      const columns = { createdAt: scanOrderLists.createdAt, updatedAt: scanOrderLists.updatedAt };
      const [rows, [{ count }]] = await Promise.all([
        db
          .select()
          .from(scanOrderLists)
          .where(filter)
          .orderBy(...orderOf(q, columns, scanOrderLists.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(scanOrderLists)
          .where(filter),
      ]);
      return { result: rows.map(toScanOrderList), count: Number(count), page: q.page, limit: q.limit };
    },
  );

  app.get('/:id', { schema: { params: IdParams, response: { 200: One } } }, async (request) => {
    const row = await find(request.params.id);
    assertReadable(request, 'ScanOrderList', row && orderSubject(row), 'Scan order list');
    return { result: toScanOrderList(row as NonNullable<typeof row>) };
  });

  app.post('/', { schema: { body: ScanOrderListCreateBody, response: { 200: One } } }, async (request) => {
    const { actor } = accessOf(request);
    const body = request.body.scanOrderList;
    const values = {
      id: crypto.randomUUID(),
      status: 'active',
      creatorUserId: body.creatorUserId ?? actor.userId,
      organizationId: body.organizationId ?? actor.orgId,
      assigneeUserIds: [...new Set(body.assigneeUserIds ?? [])],
      assigneeOrgIds: [...new Set(body.assigneeOrgIds ?? [])],
      scanOrderIds: [...new Set(body.scanOrderIds ?? [])],
      expiration: toDate(body.expiration) ?? null,
      orderBy: body.orderBy ?? null,
      orderDirection: body.orderDirection ?? null,
    };
    assertCreate(request, 'ScanOrderList', values, Object.keys(body));
    await checkOrderReferences(db, request, values);
    const row = await db.transaction(async (tx) => {
      const created = await insertScanOrderList(tx, values);
      await recordActivity(tx, {
        actionType: 'create',
        reference: 'ScanOrderList',
        referenceId: created.id,
        diff: body,
        creatorUserId: actor.userId,
        organizationId: created.organizationId,
      });
      await activateListed(tx, created.scanOrderIds);
      return created;
    });
    return { result: toScanOrderList(row) };
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: ScanOrderListPatchBody, response: { 200: One } } },
    async (request) => {
      const { actor } = accessOf(request);
      const found = await find(request.params.id);
      assertReadable(request, 'ScanOrderList', found && orderSubject(found), 'Scan order list');
      const row = await db.transaction(async (tx) => {
        const [stored] = await tx
          .select()
          .from(scanOrderLists)
          .where(eq(scanOrderLists.id, request.params.id))
          .for('update');
        if (!stored) throw notFound('Scan order list');
        const entity = request.body.scanOrderList ?? {};
        const { scanOrderIds: _o, assigneeUserIds: _u, assigneeOrgIds: _g, expiration, ...scalars } = entity;
        const sets = resolveSets(SET_FIELDS.scanOrderLists, stored, entity, request.body);
        const current = { ...stored, expiration: stored.expiration?.toISOString() ?? null };
        const patch = changedOnly(current, { ...scalars, expiration });
        for (const f of SET_FIELDS.scanOrderLists) {
          const next = sets[f];
          if (next && !sameSet(next, stored[f])) patch[f] = next;
        }
        if (Object.keys(patch).length === 0) return stored;
        assertUpdate(request, 'ScanOrderList', orderSubject(stored), patch);
        await checkOrderReferences(tx, request, patch);
        const { expiration: nextExpiration, ...rest } = patch;
        const updated = await updateScanOrderList(tx, stored.id, {
          ...rest,
          ...('expiration' in patch ? { expiration: toDate(nextExpiration as string | null) } : {}),
          updatedAt: new Date(),
        });
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'ScanOrderList',
          referenceId: stored.id,
          diff: patch,
          creatorUserId: actor.userId,
          organizationId: stored.organizationId,
        });
        // Orders added to an active list are placed too.
        if (updated.status === 'active' && patch.scanOrderIds) await activateListed(tx, updated.scanOrderIds);
        return updated;
      });
      return { result: toScanOrderList(row) };
    },
  );
};
