// /v2/organs: the organ list everyone reads (the label dialog's animal → organ pickers, §2.10) and
// platform administrators maintain (name, animal).
import crypto from 'node:crypto';
import { and, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OrganCreateBody, OrganListQuery, OrganPatchBody } from '../../api/catalog';
import { DeletedResult, IdParams, listEnvelope } from '../../api/common';
import { Organ } from '../../api/entities';
import { recordActivity } from '../activities/record';
import type { Db } from '../db/client';
import { organs, pipelines, predictors, scanGroups } from '../db/schema';
import { apiError, notFound } from '../http/errors';
import { accessOf, assertCan, assertUpdate } from '../http/guard';
import { likePattern } from '../organizations/like';
import { changedOnly } from '../organizations/validate';
import { recordDeletion } from '../sync/kinds';
import { toOrgan } from './entities';
import { deleteOrgan, insertOrgan, updateOrgan } from './repository';
import { orderOf, pageWindow } from './order';

const One = z.object({ result: Organ });

/** Names and animals compare without regard to case: 'Liver'/'human' and 'liver'/'Human' are one organ. */
async function assertUnique(db: Db, name: string, animal: string, exceptId?: string) {
  const where: (SQL | undefined)[] = [
    sql`lower(${organs.name}) = lower(${name})`,
    sql`lower(${organs.animal}) = lower(${animal})`,
    exceptId ? ne(organs.id, exceptId) : undefined,
  ];
  const [clash] = await db
    .select({ id: organs.id })
    .from(organs)
    .where(and(...where));
  if (clash) throw apiError('ORGAN_EXISTS');
}

export const organRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const find = async (id: string) => (await db.select().from(organs).where(eq(organs.id, id)))[0];

  app.get(
    '/',
    { schema: { querystring: OrganListQuery, response: { 200: listEnvelope(Organ) } } },
    async (request) => {
      const q = request.query;
      const where: (SQL | undefined)[] = [];
      if (q.animal?.length)
        where.push(
          inArray(
            sql`lower(${organs.animal})`,
            q.animal.map((a) => a.toLowerCase()),
          ),
        );
      if (q.search) where.push(ilike(organs.name, likePattern(q.search)));
      if (q.id?.length) where.push(inArray(organs.id, q.id));
      const filter = and(...where);
      const { limit, offset } = pageWindow(q);
      const order = orderOf(
        q,
        { name: organs.name, createdAt: organs.createdAt, updatedAt: organs.updatedAt },
        organs.id,
      );
      const [rows, [{ count }]] = await Promise.all([
        db
          .select()
          .from(organs)
          .where(filter)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(organs)
          .where(filter),
      ]);
      return { result: rows.map(toOrgan), count: Number(count), page: q.page, limit: q.limit };
    },
  );

  app.get('/:id', { schema: { params: IdParams, response: { 200: One } } }, async (request) => {
    const row = await find(request.params.id);
    if (!row) throw notFound('Organ');
    return { result: toOrgan(row) };
  });

  app.post('/', { schema: { body: OrganCreateBody, response: { 200: One } } }, async (request) => {
    const { actor } = accessOf(request);
    const id = crypto.randomUUID();
    assertCan(request, 'create', 'Organ', { id });
    const { name, animal } = request.body.organ;
    const row = await db.transaction(async (tx) => {
      await assertUnique(tx, name, animal);
      const created = await insertOrgan(tx, { id, name, animal, createdBy: actor.userId });
      await recordActivity(tx, {
        actionType: 'create',
        reference: 'Organ',
        referenceId: id,
        diff: { name, animal },
        creatorUserId: actor.userId,
        organizationId: actor.orgId,
      });
      return created;
    });
    return { result: toOrgan(row) };
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: OrganPatchBody, response: { 200: One } } },
    async (request) => {
      const { actor } = accessOf(request);
      const row = await db.transaction(async (tx) => {
        const [stored] = await tx.select().from(organs).where(eq(organs.id, request.params.id)).for('update');
        if (!stored) throw notFound('Organ');
        const patch = changedOnly(stored, request.body.organ ?? {});
        if (Object.keys(patch).length === 0) return stored;
        assertUpdate(request, 'Organ', stored, patch);
        const next = { ...stored, ...patch } as typeof stored;
        await assertUnique(tx, next.name, next.animal, stored.id);
        const updated = await updateOrgan(tx, stored.id, {
          name: next.name,
          animal: next.animal,
          updatedAt: new Date(),
        });
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'Organ',
          referenceId: stored.id,
          diff: patch,
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return updated;
      });
      return { result: toOrgan(row) };
    },
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: DeletedResult } } }, async (request) => {
    const { actor } = accessOf(request);
    const row = await find(request.params.id);
    if (!row) throw notFound('Organ');
    assertCan(request, 'delete', 'Organ', row);
    await db.transaction(async (tx) => {
      // One after another: a transaction is one connection, which runs one query at a time.
      for (const table of [scanGroups, pipelines, predictors]) {
        const [hit] = await tx.select({ id: table.id }).from(table).where(eq(table.organId, row.id)).limit(1);
        if (hit) throw apiError('ORGAN_IN_USE');
      }
      await deleteOrgan(tx, row.id);
      await recordDeletion(tx, 'organs', [row.id]);
      await recordActivity(tx, {
        actionType: 'delete',
        reference: 'Organ',
        referenceId: row.id,
        diff: { name: row.name, animal: row.animal },
        creatorUserId: actor.userId,
        organizationId: actor.orgId,
      });
    });
    return { result: { id: row.id } };
  });
};
