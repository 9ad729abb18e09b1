// /v2/reactions: hearts on slides (§2.9, §7). One heart per user per slide (unique index): adding it
// again answers the existing one. Deleting answers {result: {id}} (§8 "returns the id on success").
import crypto from 'node:crypto';
import { eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DeletedResult, IdParams, listEnvelope } from '../../api/common';
import { Reaction } from '../../api/entities';
import { CreateReactionBody, ReactionListQuery, ReactionResult } from '../../api/reactions';
import { recordActivity } from '../activities/record';
import { reactions } from '../db/schema';
import { readScopeSql } from '../db/read-scope-sql';
import { accessOf, assertCan, assertCreate, assertReadable, scopeOf } from '../http/guard';
import { readableScanGroup } from '../scan-groups/repository';
import { ordering, pageOf } from '../lists/list-sql';
import { recordDeletion } from '../sync/kinds';
import {
  deleteReaction,
  findReaction,
  findSameReaction,
  insertReaction,
  reactionScope,
  toReaction,
} from './repository';

export const reactionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    { schema: { querystring: ReactionListQuery, response: { 200: listEnvelope(Reaction) } } },
    async (request) => {
      const q = request.query;
      const where: SQL[] = [eq(reactions.reference, 'ScanGroup')];
      const scope = readScopeSql(scopeOf(request, 'Reaction'), reactionScope);
      if (scope) where.push(scope);
      if (q.reactionType) where.push(eq(reactions.reactionType, q.reactionType));
      if (q.scanGroupId) where.push(inArray(reactions.referenceId, q.scanGroupId));
      if (q.creatorUserId) where.push(inArray(reactions.creatorUserId, q.creatorUserId));
      const { rows, count } = await pageOf(
        db,
        reactions,
        where,
        ordering(reactions[q.orderBy], q.orderDirection, reactions.id),
        q,
      );
      return { result: rows.map(toReaction), count, page: q.page, limit: q.limit };
    },
  );

  app.post(
    '/',
    { schema: { body: CreateReactionBody, response: { 200: ReactionResult } } },
    async (request) => {
      const body = request.body;
      const { actor } = accessOf(request);
      // Only a slide the caller can see can get their heart.
      await readableScanGroup(db, request, body.referenceId);
      const row = {
        id: crypto.randomUUID(),
        creatorUserId: body.creatorUserId ?? actor.userId,
        organizationId: actor.orgId,
        reactionType: body.reactionType,
        reference: body.reference,
        referenceId: body.referenceId,
      };
      assertCreate(request, 'Reaction', row, Object.keys(body));
      const created = await db.transaction(async (tx) => {
        const inserted = await insertReaction(tx, row);
        if (inserted)
          await recordActivity(tx, {
            actionType: 'create',
            reference: 'Reaction',
            referenceId: inserted.id,
            diff: { reactionType: row.reactionType, reference: row.reference, referenceId: row.referenceId },
            creatorUserId: actor.userId,
            organizationId: actor.orgId,
          });
        return inserted;
      });
      if (created) return { result: toReaction(created) };
      const existing = await findSameReaction(db, row);
      return { result: toReaction(existing!) };
    },
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: DeletedResult } } }, async (request) => {
    const { actor } = accessOf(request);
    const id = request.params.id;
    const row = await findReaction(db, id);
    assertReadable(request, 'Reaction', row, 'Reaction');
    assertCan(request, 'delete', 'Reaction', row);
    await db.transaction(async (tx) => {
      await deleteReaction(tx, id);
      await recordDeletion(tx, 'reactions', [id]);
      await recordActivity(tx, {
        actionType: 'delete',
        reference: 'Reaction',
        referenceId: id,
        diff: { referenceId: row.referenceId },
        creatorUserId: actor.userId,
        organizationId: actor.orgId,
      });
    });
    return { result: { id } };
  });
};
