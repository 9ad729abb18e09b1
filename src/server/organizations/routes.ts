// /v2/organizations: list, create (teams under the own root, or roots for platform administrators),
// read, update within the caller's field limits (§6.2), and delete (spec §3, §6.2, §7).
import crypto from 'node:crypto';
import { and, asc, desc, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { asSubject } from '../../access';
import { DeletedResult, IdParams, listEnvelope } from '../../api/common';
import {
  OrganizationCreateBody,
  OrganizationListQuery,
  OrganizationPatchBody,
} from '../../api/organizations';
import { SET_FIELDS } from '../../api/set-fields';
import { Organization } from '../../api/users';
import { recordActivity } from '../activities/record';
import { readScopeSql } from '../db/read-scope-sql';
import { organizations, users } from '../db/schema';
import { sqlArray } from '../db/sql-array';
import { apiError, notFound } from '../http/errors';
import { accessOf, assertCan, assertCreate, assertReadable, assertUpdate, scopeOf } from '../http/guard';
import { recordDeletion } from '../sync/kinds';
import { findOrganization, organizationScope, toOrganization, toOrganizations } from './entities';
import { likePattern } from './like';
import {
  DEFAULT_ROOT_POLICIES,
  cascadeAvailablePolicies,
  deleteOrganization,
  insertOrganization,
  lockOrganization,
  touchOrganizations,
  updateOrganization,
} from './repository';
import { resolveSets, sameSet } from './set-ops';
import {
  changedOnly,
  checkAdminUser,
  checkExpirySettings,
  checkPolicies,
  checkSuperAdminGrant,
} from './validate';

const One = z.object({ result: Organization });
/** A policy the parent organization does not have available. */
const notInParent = (name: string) => apiError('POLICY_NOT_IN_PARENT', { name });

export const organizationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    { schema: { querystring: OrganizationListQuery, response: { 200: listEnvelope(Organization) } } },
    async (request) => {
      const q = request.query;
      const { actor } = accessOf(request);
      const where: (SQL | undefined)[] = [readScopeSql(scopeOf(request, 'Organization'), organizationScope)];
      if (q.parentId === 'null') where.push(isNull(organizations.parentId));
      else if (q.parentId) where.push(eq(organizations.parentId, q.parentId));
      if (q.showAsAdmin && !actor.superAdmin && !actor.has('platformOrganizationManagement'))
        where.push(inArray(organizations.id, actor.orgAndTeams));
      if (q.search) where.push(ilike(organizations.name, likePattern(q.search)));
      if (q.id?.length) where.push(inArray(organizations.id, q.id));
      const filter = and(...where);
      const order = q.orderDirection === 'asc' ? asc : desc;
      const [rows, [{ count }]] = await Promise.all([
        db
          .select()
          .from(organizations)
          .where(filter)
          .orderBy(order(organizations.createdAt), order(organizations.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(organizations)
          .where(filter),
      ]);
      return { result: await toOrganizations(db, rows), count: Number(count), page: q.page, limit: q.limit };
    },
  );

  app.post('/', { schema: { body: OrganizationCreateBody, response: { 200: One } } }, async (request) => {
    const body = request.body.organization;
    const { actor, ability } = accessOf(request);
    const id = crypto.randomUUID();
    const parent = body.parentId ? await findOrganization(db, body.parentId) : undefined;
    if (body.parentId && (!parent || !ability.can('read', asSubject('Organization', parent))))
      throw apiError('NO_PARENT');
    const rootId = parent?.rootId ?? id;
    const placement = {
      id,
      rootId,
      parentId: parent?.id ?? null,
      parentIds: parent ? [...parent.parentIds, parent.id] : [],
    };
    assertCreate(request, 'Organization', placement, Object.keys(body));

    const available = body.availablePolicies ?? parent?.availablePolicies ?? DEFAULT_ROOT_POLICIES;
    checkPolicies('availablePolicies', available, parent?.availablePolicies, notInParent);
    const enabled =
      body.enabledPolicies ??
      (parent ? parent.enabledPolicies : available).filter((p) => available.includes(p));
    checkPolicies('enabledPolicies', enabled, available);
    checkSuperAdminGrant(actor.superAdmin, [
      ...(body.availablePolicies ?? []),
      ...(body.enabledPolicies ?? []),
    ]);
    const scanGroupSettings = body.scanGroupSettings ?? parent?.scanGroupSettings ?? {};
    checkExpirySettings(scanGroupSettings);
    await checkAdminUser(db, body.adminUserId, rootId);

    const row = await db.transaction(async (tx) => {
      const created = await insertOrganization(tx, {
        ...placement,
        name: body.name,
        availablePolicies: [...new Set(available)],
        enabledPolicies: [...new Set(enabled)],
        info: body.info ?? {},
        adminUserId: body.adminUserId ?? null,
        scanGroupSettings,
        userLimit: body.userLimit ?? null,
        creatorUserId: actor.userId,
      });
      await touchOrganizations(tx, placement.parentIds);
      await recordActivity(tx, {
        actionType: 'create',
        reference: 'Organization',
        referenceId: id,
        diff: { name: body.name, parentId: placement.parentId },
        creatorUserId: actor.userId,
        organizationId: id,
      });
      return created;
    });
    return { result: await toOrganization(db, row) };
  });

  app.get('/:id', { schema: { params: IdParams, response: { 200: One } } }, async (request) => {
    const row = await findOrganization(db, request.params.id);
    assertReadable(request, 'Organization', row, 'Organization');
    return { result: await toOrganization(db, row as NonNullable<typeof row>) };
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: OrganizationPatchBody, response: { 200: One } } },
    async (request) => {
      const { actor } = accessOf(request);
      const found = await findOrganization(db, request.params.id);
      assertReadable(request, 'Organization', found, 'Organization');
      const row = await db.transaction(async (tx) => {
        const stored = await lockOrganization(tx, request.params.id);
        if (!stored) throw notFound('Organization');
        const entity = request.body.organization ?? {};
        const sets = resolveSets(SET_FIELDS.organizations, stored, entity, request.body);
        for (const f of SET_FIELDS.organizations) {
          if (sets[f] && sameSet(sets[f], stored[f])) delete sets[f];
        }
        const patch = changedOnly(stored, { ...entity, ...sets });
        delete patch.availablePolicies;
        delete patch.enabledPolicies;
        Object.assign(patch, sets);
        if (Object.keys(patch).length === 0) return stored;
        assertUpdate(request, 'Organization', stored, patch);

        const parent = stored.parentId ? await findOrganization(tx, stored.parentId) : undefined;
        const available = sets.availablePolicies ?? stored.availablePolicies;
        // Only what is added is judged: a stored name that has gone stale must not block other edits.
        const added = (next: readonly string[], before: readonly string[]) =>
          next.filter((p) => !before.includes(p));
        if (sets.availablePolicies)
          checkPolicies(
            'availablePolicies',
            added(available, stored.availablePolicies),
            parent?.availablePolicies,
            notInParent,
          );
        if (sets.enabledPolicies)
          checkPolicies('enabledPolicies', added(sets.enabledPolicies, stored.enabledPolicies), available);
        checkSuperAdminGrant(actor.superAdmin, [
          ...added(available, stored.availablePolicies),
          ...added(sets.enabledPolicies ?? [], stored.enabledPolicies),
        ]);
        // Enabled policies never outgrow the available ones: shrinking the latter trims the former.
        const enabled = (sets.enabledPolicies ?? stored.enabledPolicies).filter((p) => available.includes(p));
        const info = { ...stored.info, ...entity.info };
        const scanGroupSettings = { ...stored.scanGroupSettings, ...entity.scanGroupSettings };
        checkExpirySettings(scanGroupSettings);
        if (patch.adminUserId) await checkAdminUser(tx, entity.adminUserId, stored.rootId);

        const updated = await updateOrganization(tx, stored.id, {
          name: entity.name ?? stored.name,
          availablePolicies: available,
          enabledPolicies: enabled,
          info,
          scanGroupSettings,
          adminUserId: entity.adminUserId === undefined ? stored.adminUserId : entity.adminUserId,
          userLimit: entity.userLimit === undefined ? stored.userLimit : entity.userLimit,
          updatedAt: new Date(),
        });
        const removed = stored.availablePolicies.filter((p) => !available.includes(p));
        await cascadeAvailablePolicies(tx, stored.id, removed);
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'Organization',
          referenceId: stored.id,
          diff: patch,
          creatorUserId: actor.userId,
          organizationId: stored.id,
        });
        return updated;
      });
      return { result: await toOrganization(db, row) };
    },
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: DeletedResult } } }, async (request) => {
    const { actor } = accessOf(request);
    const row = await findOrganization(db, request.params.id);
    assertReadable(request, 'Organization', row, 'Organization');
    const org = row as NonNullable<typeof row>;
    assertCan(request, 'delete', 'Organization', org);
    await db.transaction(async (tx) => {
      const [{ teams }] = await tx
        .select({ teams: sql<number>`count(*)::int` })
        .from(organizations)
        .where(sql`${organizations.parentIds} && ${sqlArray([org.id])}`);
      const [{ members }] = await tx
        .select({ members: sql<number>`count(*)::int` })
        .from(users)
        .where(eq(users.organizationId, org.id));
      if (Number(teams) > 0 || Number(members) > 0) throw apiError('NOT_EMPTY');
      await deleteOrganization(tx, org.id);
      await touchOrganizations(tx, org.parentIds);
      await recordDeletion(tx, 'organizations', [org.id]);
      await recordActivity(tx, {
        actionType: 'delete',
        reference: 'Organization',
        referenceId: org.id,
        diff: { name: org.name },
        creatorUserId: actor.userId,
        organizationId: org.parentId,
      });
    });
    return { result: { id: org.id } };
  });
};
