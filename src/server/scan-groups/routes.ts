// /v2/scan-groups: slides (slide labels). List with the §7 filters, create with a fresh simpleId,
// read, update (fields, share, archive/reactivate), delete (spec §3, §4.2, §6.2).
import crypto from 'node:crypto';
import { eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DeletedResult, IdParams, listEnvelope } from '../../api/common';
import type { Overwritten } from '../../api/edit-base';
import { ScanGroup } from '../../api/entities';
import {
  CreateScanGroupBody,
  ScanGroupListQuery,
  ScanGroupResult,
  SCAN_GROUP_GUARDED_FIELDS,
  UpdateScanGroupBody,
  UpdateScanGroupResult,
  normalizeSimpleId,
} from '../../api/scan-groups';
import { SET_FIELDS as RESOURCE_SET_FIELDS, type SetFieldOf } from '../../api/set-fields';
import { recordActivity } from '../activities/record';
import { organizations, scanGroups } from '../db/schema';
import { listScopeSql } from '../db/read-scope-sql';
import { apiError } from '../http/errors';
import { accessOf, assertCan, assertCreate, assertUpdate, scopeOf } from '../http/guard';
import { listPage, sendJson } from '../lists/page-statement';
import { recordDeletion } from '../sync/kinds';
import { containsPattern, dateRange, prefixPattern } from '../lists/list-sql';
import { assertAssignable, assertOrgan, checkTags } from '../edits/checks';
import { changedFields, overwrittenValues } from '../edits/changes';
import { applySet, setSql, textArraySql, touches, type SetChange } from '../edits/sets';
import { recomputeInheritance } from './inheritance';
import {
  deleteScanGroup,
  deleteScanGroupReactions,
  detachScanGroup,
  insertWithSimpleId,
  readableScanGroup,
  scanGroupScope,
  toScanGroup,
  updateScanGroup,
} from './repository';
import { moveImages, planArchive, storageStepSet } from './storage';
import { enqueue } from '../jobs/queue';
import { STORAGE_STEP, STORAGE_STEP_DELAY_MS } from '../jobs/kinds';
import { scanGroupList } from './list-sql';

const SET_FIELDS = RESOURCE_SET_FIELDS.scanGroups;
type SetField = SetFieldOf<'scanGroups'>;
/** The editable part of a PATCH's scanGroup, once unchanged and echoed fields are dropped. */
type ScanGroupEdit = Pick<
  NonNullable<UpdateScanGroupBody['scanGroup']>,
  'name' | 'notes' | 'LISInfo' | 'organId' | 'animal' | 'archiveAt' | SetField
>;
const DAY_MS = 86_400_000;

export const scanGroupRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    {
      schema: { querystring: ScanGroupListQuery, response: { 200: listEnvelope(ScanGroup) } },
      config: { checksActor: true },
    },
    async (request, reply) => {
      const q = request.query;
      const where = () => {
        const out: SQL[] = [];
        const scope = listScopeSql(scopeOf(request, 'ScanGroup'), scanGroupScope, q.organizationId);
        if (scope) out.push(scope);
        if (q.id) out.push(inArray(scanGroups.id, q.id));
        if (q.creatorUserId) out.push(inArray(scanGroups.creatorUserId, q.creatorUserId));
        if (q.organId) out.push(inArray(scanGroups.organId, q.organId));
        if (q.organizationId) out.push(inArray(scanGroups.organizationId, q.organizationId));
        if (q.storageStatus) out.push(inArray(scanGroups.storageStatus, q.storageStatus));
        if (q.status) out.push(inArray(scanGroups.status, q.status));
        if (q.simpleId) out.push(inArray(scanGroups.simpleId, q.simpleId.map(normalizeSimpleId)));
        if (q.simpleIdPrefix)
          out.push(ilike(scanGroups.simpleId, prefixPattern(normalizeSimpleId(q.simpleIdPrefix))));
        if (q.animalName)
          out.push(
            inArray(
              sql`lower(${scanGroups.animal})`,
              q.animalName.map((a) => a.trim().toLowerCase()),
            ),
          );
        if (q.tag) out.push(sql`${scanGroups.tags} && ${textArraySql(q.tag)}`);
        if (q.search) {
          const pattern = containsPattern(q.search);
          out.push(
            or(
              ilike(scanGroups.simpleId, containsPattern(normalizeSimpleId(q.search))),
              ilike(scanGroups.name, pattern),
              ilike(scanGroups.notes, pattern),
            )!,
          );
        }
        out.push(...dateRange(scanGroups.createdAt, q.createdAtStart, q.createdAtEnd));
        out.push(...dateRange(scanGroups.archiveAt, q.archiveAtStart, q.archiveAtEnd));
        return out;
      };
      const json = await listPage(request, app.ctx.database, scanGroupList, {
        where,
        orderBy: scanGroups[q.orderBy],
        direction: q.orderDirection,
        page: q.page,
        limit: q.limit,
        organizationIds: q.organizationId,
        scope: () => scopeOf(request, 'ScanGroup'),
      });
      return sendJson(reply, json);
    },
  );

  app.post(
    '/',
    { schema: { body: CreateScanGroupBody, response: { 200: ScanGroupResult } } },
    async (request) => {
      const body = request.body.scanGroup;
      const { actor } = accessOf(request);
      const organizationId = body.organizationId ?? actor.orgId;
      const now = new Date();
      const row = {
        id: crypto.randomUUID(),
        organizationId,
        creatorUserId: body.creatorUserId ?? actor.userId,
        status: 'created' as const,
        storageStatus: 'active' as const,
        name: body.name ?? null,
        notes: body.notes ?? '',
        lisInfo: body.LISInfo ?? null,
        organId: body.organId ?? null,
        animal: body.animal ?? null,
        tags: body.tags ?? [],
        // Like a new study (§4.5): the creator and their organization are its first assignees.
        assigneeUserIds: applySet([actor.userId], { add: body.assigneeUserIds }),
        assigneeOrgIds: applySet([actor.orgId], { add: body.assigneeOrgIds }),
        archiveAt: body.archiveAt ? new Date(body.archiveAt) : null,
        storageHistory: [{ storageStatus: 'active', timestamp: now.toISOString() }],
      };
      assertCreate(request, 'ScanGroup', { ...row, archiveAt: body.archiveAt ?? null }, Object.keys(body));

      const [org] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
      if (!org) throw apiError('ORGANIZATION_UNAVAILABLE', { field: 'scanGroup.organizationId' });
      checkTags({ replace: row.tags, stored: [], final: row.tags, tooMany: 'SLIDE_TOO_MANY_TAGS' });
      row.animal = await assertOrgan(db, row.organId, row.animal, 'scanGroup');
      await assertAssignable(
        db,
        request,
        { userIds: body.assigneeUserIds ?? [], orgIds: body.assigneeOrgIds ?? [] },
        'scanGroup',
      );
      if (row.archiveAt && row.archiveAt.getTime() <= now.getTime())
        throw apiError('ARCHIVE_DATE_PAST', { field: 'scanGroup.archiveAt' });
      // The organization's default active period schedules the archive of a new slide (§3).
      const days = org.scanGroupSettings.defaultActiveExpiryDays;
      if (body.archiveAt === undefined && days) row.archiveAt = new Date(now.getTime() + days * DAY_MS);

      const created = await db.transaction(async (tx) => {
        const inserted = await insertWithSimpleId(tx, row);
        await recordActivity(tx, {
          actionType: 'create',
          reference: 'ScanGroup',
          referenceId: inserted.id,
          diff: { simpleId: inserted.simpleId, ...body },
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return inserted;
      });
      return { result: toScanGroup(created) };
    },
  );

  app.get('/:id', { schema: { params: IdParams, response: { 200: ScanGroupResult } } }, async (request) => {
    return { result: (await readableScanGroup(db, request, request.params.id)).entity };
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: UpdateScanGroupBody, response: { 200: UpdateScanGroupResult } } },
    async (request) => {
      const { actor } = accessOf(request);
      const b = request.body;
      let overwritten: Overwritten[] = [];
      const result = await db.transaction(async (tx) => {
        const { row, entity: current } = await readableScanGroup(tx, request, request.params.id, true);
        // Storage state is the server's (archiveAt moves it): an echoed stale value is not a change.
        const fields: ScanGroupEdit = changedFields(b.scanGroup ?? {}, current, {
          ignored: [
            'createdAt',
            'updatedAt',
            'inheritedAssignees',
            'storageHistory',
            'lastUploadDate',
            'status',
            'storageStatus',
          ],
          fixed: ['id', 'simpleId', 'organizationId', 'creatorUserId'],
          prefix: 'body.scanGroup',
        });

        const changes = {} as Record<SetField, SetChange>;
        for (const f of SET_FIELDS)
          changes[f] = { replace: fields[f], add: b.add?.[f], remove: b.remove?.[f] };
        const patch: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(fields)) if (v !== undefined) patch[k] = v;
        for (const f of SET_FIELDS) if (touches(changes[f])) patch[f] = applySet(current[f], changes[f]);
        if (Object.keys(patch).length === 0) return current;

        // Archived slides keep still: only reactivation (archiveAt) is accepted (§4.2).
        if (current.storageStatus !== 'active' && Object.keys(patch).some((k) => k !== 'archiveAt'))
          throw apiError('ARCHIVED_SLIDE_CHANGED');
        assertUpdate(request, 'ScanGroup', current, patch);
        // Read FOR UPDATE above: no other write lands between this comparison and ours.
        overwritten = overwrittenValues(patch, current, b.base, SCAN_GROUP_GUARDED_FIELDS);
        const sharing = 'assigneeUserIds' in patch || 'assigneeOrgIds' in patch;
        if (sharing) assertCan(request, 'share', 'ScanGroup', current);

        if ('tags' in patch)
          checkTags({
            replace: fields.tags,
            add: b.add?.tags,
            stored: current.tags,
            final: patch.tags as string[],
            tooMany: 'SLIDE_TOO_MANY_TAGS',
          });
        const added = (f: 'assigneeUserIds' | 'assigneeOrgIds') =>
          ((patch[f] as string[] | undefined) ?? []).filter((id) => !current[f].includes(id));
        await assertAssignable(
          tx,
          request,
          { userIds: added('assigneeUserIds'), orgIds: added('assigneeOrgIds') },
          'scanGroup',
        );
        // A new organ brings its animal unless one is given with it.
        let animal = fields.animal;
        if (fields.organId !== undefined || fields.animal !== undefined)
          animal = await assertOrgan(
            tx,
            fields.organId !== undefined ? fields.organId : current.organId,
            fields.animal !== undefined
              ? fields.animal
              : fields.organId !== undefined
                ? null
                : current.animal,
            'scanGroup',
          );
        const plan =
          fields.archiveAt !== undefined
            ? planArchive(row, fields.archiveAt === null ? null : new Date(fields.archiveAt))
            : undefined;

        const set: PgUpdateSetSource<typeof scanGroups> = {};
        if (fields.name !== undefined) set.name = fields.name;
        if (fields.notes !== undefined) set.notes = fields.notes;
        if (fields.LISInfo !== undefined) set.lisInfo = fields.LISInfo;
        if (fields.organId !== undefined) set.organId = fields.organId;
        if (animal !== undefined) set.animal = animal;
        for (const f of SET_FIELDS) if (touches(changes[f])) set[f] = setSql(scanGroups[f], changes[f]);
        if (plan) {
          set.archiveAt = plan.archiveAt;
          if (plan.storageStatus) Object.assign(set, storageStepSet(plan.storageStatus));
        }
        const updated = await updateScanGroup(tx, row.id, set);
        if (plan?.storageStatus) {
          await moveImages(tx, row.id, plan.storageStatus, plan.archiveAt);
          // The storage job finishes the step (archiving → archived, restoring → active).
          await enqueue(
            tx,
            STORAGE_STEP,
            { scanGroupId: row.id },
            { runAt: new Date(Date.now() + STORAGE_STEP_DELAY_MS) },
          );
        }
        if (sharing) await recomputeInheritance(tx, { scanGroupIds: [row.id] });

        const onlySharing = Object.keys(patch).every(
          (k) => k === 'assigneeUserIds' || k === 'assigneeOrgIds',
        );
        await recordActivity(tx, {
          actionType: plan?.storageStatus
            ? plan.archiveAt === null
              ? 'reactivate'
              : 'archive'
            : onlySharing
              ? 'share'
              : 'update',
          reference: 'ScanGroup',
          referenceId: row.id,
          diff: patch,
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return toScanGroup(updated);
      });
      if (request.body.scanGroup?.archiveAt !== undefined)
        setTimeout(() => app.ctx.jobs.nudge(), STORAGE_STEP_DELAY_MS + 50);
      return overwritten.length ? { result, overwritten } : { result };
    },
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: DeletedResult } } }, async (request) => {
    const { actor } = accessOf(request);
    const id = request.params.id;
    await db.transaction(async (tx) => {
      const { entity: current } = await readableScanGroup(tx, request, id, true);
      assertCan(request, 'delete', 'ScanGroup', current);
      await detachScanGroup(tx, id);
      await recordDeletion(tx, 'reactions', await deleteScanGroupReactions(tx, id));
      await deleteScanGroup(tx, id);
      await recordDeletion(tx, 'scan-groups', [id]);
      await recordActivity(tx, {
        actionType: 'delete',
        reference: 'ScanGroup',
        referenceId: id,
        diff: { simpleId: current.simpleId },
        creatorUserId: actor.userId,
        organizationId: actor.orgId,
      });
    });
    return { result: { id } };
  });
};
