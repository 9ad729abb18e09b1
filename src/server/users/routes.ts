// /v2/users: list, e-mail availability, invitation (a pending user and an activation e-mail), read,
// update of name and enabledPolicies, and delete (spec §3, §5, §6.2, §7).
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeletedResult, IdParams, listEnvelope } from '../../api/common';
import {
  CheckEmailQuery,
  CheckEmailResult,
  UserCreateBody,
  UserListQuery,
  UserPatchBody,
} from '../../api/organizations';
import { SET_FIELDS } from '../../api/set-fields';
import { User } from '../../api/users';
import { recordActivity } from '../activities/record';
import { users } from '../db/schema';
import { readScopeSql } from '../db/read-scope-sql';
import { notFound } from '../http/errors';
import { accessOf, assertCan, assertReadable, assertUpdate, scopeOf } from '../http/guard';
import { linkOrigin } from '../http/origins';
import { findOrganization } from '../organizations/entities';
import { likePattern } from '../organizations/like';
import { clearOrganizationAdmin, touchOrganizations } from '../organizations/repository';
import { resolveSets, sameSet } from '../organizations/set-ops';
import { changedOnly, checkPolicies, checkSuperAdminGrant } from '../organizations/validate';
import { recordDeletion } from '../sync/kinds';
import { inviteUser, resendInvitation } from './invite';
import { deleteUser, findUser, findUserByEmail, toUser, updateUser, userScope } from './repository';

const One = z.object({ result: User });

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    { schema: { querystring: UserListQuery, response: { 200: listEnvelope(User) } } },
    async (request) => {
      const q = request.query;
      const where: (SQL | undefined)[] = [readScopeSql(scopeOf(request, 'User'), userScope)];
      if (q.organizationId?.length) where.push(inArray(users.organizationId, q.organizationId));
      if (q.status?.length) where.push(inArray(users.status, q.status));
      if (q.id?.length) where.push(inArray(users.id, q.id));
      if (q.search) {
        const pattern = likePattern(q.search);
        where.push(or(ilike(users.name, pattern), ilike(users.email, pattern)));
      }
      const filter = and(...where);
      const order = q.orderDirection === 'asc' ? asc : desc;
      const [rows, [{ count }]] = await Promise.all([
        db
          .select()
          .from(users)
          .where(filter)
          .orderBy(order(users.createdAt), order(users.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(users)
          .where(filter),
      ]);
      return { result: rows.map(toUser), count: Number(count), page: q.page, limit: q.limit };
    },
  );

  app.get(
    '/check-email',
    { schema: { querystring: CheckEmailQuery, response: { 200: CheckEmailResult } } },
    async (request) => {
      // Only for who may invite, and only about their own organization and its teams (the platform's
      // user managers: every organization), so nobody can learn which addresses have accounts elsewhere.
      assertCan(request, 'create', 'User');
      const row = await findUserByEmail(db, request.query.email);
      const scope = scopeOf(request, 'User');
      const inTree = row && (scope.all || accessOf(request).actor.orgAndTeams.includes(row.organizationId));
      return { isEmailAvailable: !inTree };
    },
  );

  app.post('/', { schema: { body: UserCreateBody, response: { 200: One } } }, async (request) => {
    const origin = linkOrigin(app, request);
    const row = await inviteUser(app.ctx, request, request.body.user, origin);
    return { result: toUser(row) };
  });

  app.post('/:id/invitation', { schema: { params: IdParams, response: { 200: One } } }, async (request) => {
    const origin = linkOrigin(app, request);
    const row = await resendInvitation(app.ctx, request, request.params.id, origin);
    return { result: toUser(row) };
  });

  app.get('/:id', { schema: { params: IdParams, response: { 200: One } } }, async (request) => {
    const row = await findUser(db, request.params.id);
    assertReadable(request, 'User', row, 'User');
    return { result: toUser(row) };
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: UserPatchBody, response: { 200: One } } },
    async (request) => {
      const { actor } = accessOf(request);
      assertReadable(request, 'User', await findUser(db, request.params.id), 'User');
      const row = await db.transaction(async (tx) => {
        const [stored] = await tx.select().from(users).where(eq(users.id, request.params.id)).for('update');
        if (!stored) throw notFound('User');
        const entity = request.body.user ?? {};
        const sets = resolveSets(SET_FIELDS.users, stored, entity, request.body);
        const policies = sets.enabledPolicies;
        const patch = changedOnly(stored, { name: entity.name });
        if (policies && !sameSet(policies, stored.enabledPolicies)) patch.enabledPolicies = policies;
        if (Object.keys(patch).length === 0) return stored;
        assertUpdate(request, 'User', stored, patch);
        if (patch.enabledPolicies) {
          const org = await findOrganization(tx, stored.organizationId);
          // Only added names are judged, so a stale stored name does not block removing others.
          const added = (policies ?? []).filter((p) => !stored.enabledPolicies.includes(p));
          checkPolicies('enabledPolicies', added, org?.availablePolicies ?? []);
          checkSuperAdminGrant(actor.superAdmin, added);
        }
        const updated = await updateUser(tx, stored.id, patch);
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'User',
          referenceId: stored.id,
          diff: patch,
          creatorUserId: actor.userId,
          organizationId: stored.organizationId,
        });
        return updated;
      });
      return { result: toUser(row) };
    },
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: DeletedResult } } }, async (request) => {
    const { actor } = accessOf(request);
    const row = await findUser(db, request.params.id);
    assertReadable(request, 'User', row, 'User');
    assertCan(request, 'delete', 'User', row);
    await db.transaction(async (tx) => {
      await deleteUser(tx, row.id);
      await clearOrganizationAdmin(tx, row.id);
      await touchOrganizations(tx, [row.organizationId]); // its numberOfUsers changed
      await recordDeletion(tx, 'users', [row.id]);
      await recordActivity(tx, {
        actionType: 'delete',
        reference: 'User',
        referenceId: row.id,
        diff: { email: row.email, name: row.name },
        creatorUserId: actor.userId,
        organizationId: row.organizationId,
      });
    });
    return { result: { id: row.id } };
  });
};
