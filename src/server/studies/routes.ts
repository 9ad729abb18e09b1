// /v2/studies: list with the §7 filters, tags, create, read, update (name, tags, slides, sharing)
// and delete (spec §3, §4.5, §5, §6.2). Slides gain and lose the study's assignees in the same
// transaction (inheritance.ts).
import crypto from 'node:crypto';
import { inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DeletedResult, IdParams, listEnvelope } from '../../api/common';
import type { Overwritten } from '../../api/edit-base';
import { Study } from '../../api/entities';
import { isSimpleId, normalizeSimpleId } from '../../api/scan-groups';
import { SET_FIELDS as RESOURCE_SET_FIELDS, type SetFieldOf } from '../../api/set-fields';
import {
  CreateStudyBody,
  StudyListQuery,
  StudyResult,
  StudyTags,
  StudyTagsQuery,
  STUDY_GUARDED_FIELDS,
  UpdateStudyBody,
  UpdateStudyResult,
} from '../../api/studies';
import { recordActivity } from '../activities/record';
import { scanGroups, studies } from '../db/schema';
import { listScopeSql, readScopeSql, UUID } from '../db/read-scope-sql';
import { apiError } from '../http/errors';
import { accessOf, assertCan, assertCreate, assertUpdate, scopeOf } from '../http/guard';
import { changedFields, overwrittenValues } from '../edits/changes';
import { dateRange } from '../lists/list-sql';
import { assertAssignable, checkTags } from '../edits/checks';
import { applySet, firstDuplicate, setSql, textArraySql, touches, type SetChange } from '../edits/sets';
import { recomputeInheritance } from '../scan-groups/inheritance';
import { answeredByOrderIndex, listPage, sendJson } from '../lists/page-statement';
import { recordDeletion } from '../sync/kinds';
import { assertAddableSlides } from './addable-slides';
import { studyList, studyNameContains } from './list-sql';
import {
  deleteStudy,
  insertStudy,
  insertStudyWithActivity,
  readableStudy,
  studyScope,
  toStudy,
  updateStudy,
} from './repository';

/** The editable part of a PATCH's study, once unchanged and echoed fields are dropped. */
type StudyEdit = Pick<NonNullable<UpdateStudyBody['study']>, 'name' | 'viewerOptions' | SetField>;

const SET_FIELDS = RESOURCE_SET_FIELDS.studies;
type SetField = SetFieldOf<'studies'>;
const ASSIGNEES = ['assigneeUserIds', 'assigneeOrgIds'] as const;

/** 'The study already has this scan group.': twice in one list (400) or already on the study (409). */
function checkSlides(c: SetChange, stored: readonly string[]): void {
  if (c.replace && firstDuplicate(c.replace)) throw apiError('SCAN_GROUP_REPEATED');
  if (c.add?.length) {
    if (firstDuplicate(c.add)) throw apiError('SCAN_GROUP_REPEATED');
    const have = c.replace ?? stored;
    if (c.add.some((id) => have.includes(id))) throw apiError('SCAN_GROUP_IN_STUDY');
  }
}

export const studyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    {
      schema: { querystring: StudyListQuery, response: { 200: listEnvelope(Study) } },
      config: { checksActor: true },
    },
    async (request, reply) => {
      const q = request.query;
      // Filters on the study's slides: some slide of the study matches each given filter.
      const slide: SQL[] = [];
      if (q.animalName)
        slide.push(
          inArray(
            sql`lower(${scanGroups.animal})`,
            q.animalName.map((a) => a.trim().toLowerCase()),
          ),
        );
      if (q.organId) slide.push(inArray(scanGroups.organId, q.organId));
      if (q.slideId) {
        const ids = q.slideId.filter((v) => UUID.test(v));
        const simple = q.slideId.map(normalizeSimpleId).filter(isSimpleId);
        slide.push(
          or(
            ids.length ? inArray(scanGroups.id, ids) : sql`false`,
            simple.length ? inArray(scanGroups.simpleId, simple) : sql`false`,
          )!,
        );
      }
      const where = () => {
        const out: SQL[] = [];
        const scope = listScopeSql(scopeOf(request, 'Study'), studyScope, q.organizationId);
        if (scope) out.push(scope);
        if (q.name) out.push(answeredByOrderIndex(studyNameContains(q.name)));
        if (q.organizationId) out.push(inArray(studies.organizationId, q.organizationId));
        if (q.creatorUserId) out.push(inArray(studies.creatorUserId, q.creatorUserId));
        if (q.tag) out.push(sql`${studies.tags} && ${textArraySql(q.tag)}`);
        out.push(...dateRange(studies.createdAt, q.createdAtStart, q.createdAtEnd));
        // "Some slide of the study matches" as an overlap with the matching slides' ids, which the GIN
        // index of scan_group_ids answers (migration 0009) instead of a subquery per study.
        for (const cond of slide)
          out.push(
            sql`${studies.scanGroupIds} && ARRAY(SELECT ${scanGroups.id}::text FROM ${scanGroups} WHERE ${cond})`,
          );
        return out;
      };
      const json = await listPage(request, app.ctx.database, studyList(slide.length > 0), {
        where,
        orderBy: studies[q.orderBy],
        direction: q.orderDirection,
        page: q.page,
        limit: q.limit,
        organizationIds: q.organizationId,
        scope: () => scopeOf(request, 'Study'),
      });
      return sendJson(reply, json);
    },
  );

  app.get(
    '/tags',
    { schema: { querystring: StudyTagsQuery, response: { 200: StudyTags } } },
    async (request) => {
      const rows = await db
        .selectDistinct({ tag: sql<string>`unnest(${studies.tags})` })
        .from(studies)
        .where(readScopeSql(scopeOf(request, 'Study'), studyScope));
      const search = request.query.search?.trim().toLowerCase();
      const tags = rows.map((r) => r.tag).filter((t) => !search || t.toLowerCase().includes(search));
      return { tags: tags.sort((a, b) => a.localeCompare(b)) };
    },
  );

  app.post('/', { schema: { body: CreateStudyBody, response: { 200: StudyResult } } }, async (request) => {
    const body = request.body.study;
    const { actor } = accessOf(request);
    // §4.5: the caller is the creator and first assignee, their organization the assignee organization.
    const row = {
      id: crypto.randomUUID(),
      name: body.name,
      tags: body.tags ?? [],
      scanGroupIds: body.scanGroupIds ?? [],
      organizationId: body.organizationId ?? actor.orgId,
      status: 'created',
      creatorUserId: body.creatorUserId ?? actor.userId,
      assigneeUserIds: applySet([actor.userId], { add: body.assigneeUserIds }),
      assigneeOrgIds: applySet([actor.orgId], { add: body.assigneeOrgIds }),
      viewerOptions: body.viewerOptions ?? null,
    };
    assertCreate(request, 'Study', row, Object.keys(body));
    checkTags({ replace: row.tags, stored: [], final: row.tags, tooMany: 'STUDY_TOO_MANY_TAGS' });
    checkSlides({ replace: row.scanGroupIds }, []);
    await assertAddableSlides(db, request, row.scanGroupIds, 'study');
    await assertAssignable(
      db,
      request,
      { userIds: body.assigneeUserIds ?? [], orgIds: body.assigneeOrgIds ?? [] },
      'study',
    );
    const activity = {
      actionType: 'create',
      reference: 'Study',
      referenceId: row.id,
      diff: body,
      creatorUserId: actor.userId,
      organizationId: actor.orgId,
    } as const;
    // Without slides there is no inheritance to recompute: the row and its activity in one statement.
    const created = row.scanGroupIds.length
      ? await db.transaction(async (tx) => {
          const inserted = await insertStudy(tx, row);
          await recomputeInheritance(tx, { scanGroupIds: row.scanGroupIds });
          await recordActivity(tx, activity);
          return inserted;
        })
      : await insertStudyWithActivity(db, row, activity);
    return { result: toStudy(created) };
  });

  app.get('/:id', { schema: { params: IdParams, response: { 200: StudyResult } } }, async (request) => {
    return { result: (await readableStudy(db, request, request.params.id)).entity };
  });

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: UpdateStudyBody, response: { 200: UpdateStudyResult } } },
    async (request) => {
      const { actor } = accessOf(request);
      const b = request.body;
      let overwritten: Overwritten[] = [];
      const result = await db.transaction(async (tx) => {
        const { row, entity: current } = await readableStudy(tx, request, request.params.id, true);
        const fields: StudyEdit = changedFields(b.study ?? {}, current, {
          ignored: ['createdAt', 'updatedAt', 'inheritedAssignees'],
          fixed: ['id', 'status', 'organizationId', 'creatorUserId'],
          prefix: 'body.study',
        });
        const changes = {} as Record<SetField, SetChange>;
        for (const f of SET_FIELDS)
          changes[f] = { replace: fields[f], add: b.add?.[f], remove: b.remove?.[f] };
        const patch: Record<string, unknown> = {};
        if (fields.name !== undefined) patch.name = fields.name;
        if (fields.viewerOptions !== undefined) patch.viewerOptions = fields.viewerOptions;
        for (const f of SET_FIELDS) if (touches(changes[f])) patch[f] = applySet(current[f], changes[f]);
        if (Object.keys(patch).length === 0) return current;

        assertUpdate(request, 'Study', current, patch);
        // Read FOR UPDATE above: no other write lands between this comparison and ours.
        overwritten = overwrittenValues(patch, current, b.base, STUDY_GUARDED_FIELDS);
        if (touches(changes.tags))
          checkTags({
            replace: fields.tags,
            add: b.add?.tags,
            stored: current.tags,
            final: patch.tags as string[],
            tooMany: 'STUDY_TOO_MANY_TAGS',
          });
        const added = (f: SetField) =>
          ((patch[f] as string[] | undefined) ?? []).filter((id) => !current[f].includes(id));
        if (touches(changes.scanGroupIds)) {
          checkSlides(changes.scanGroupIds, current.scanGroupIds);
          await assertAddableSlides(tx, request, added('scanGroupIds'), 'study');
        }
        await assertAssignable(
          tx,
          request,
          { userIds: added('assigneeUserIds'), orgIds: added('assigneeOrgIds') },
          'study',
        );

        const set: PgUpdateSetSource<typeof studies> = {};
        if (fields.name !== undefined) set.name = fields.name;
        if (fields.viewerOptions !== undefined) set.viewerOptions = fields.viewerOptions;
        for (const f of SET_FIELDS) if (touches(changes[f])) set[f] = setSql(studies[f], changes[f]);
        const updated = await updateStudy(tx, row.id, set);
        const sharing = ASSIGNEES.some((f) => f in patch);
        if (sharing || 'scanGroupIds' in patch)
          await recomputeInheritance(tx, {
            scanGroupIds: [...current.scanGroupIds, ...updated.scanGroupIds],
          });
        await recordActivity(tx, {
          actionType: Object.keys(patch).every((k) => k.startsWith('assignee')) ? 'share' : 'update',
          reference: 'Study',
          referenceId: row.id,
          diff: patch,
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return toStudy(updated);
      });
      return overwritten.length ? { result, overwritten } : { result };
    },
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: DeletedResult } } }, async (request) => {
    const { actor } = accessOf(request);
    const id = request.params.id;
    await db.transaction(async (tx) => {
      const { entity: current } = await readableStudy(tx, request, id, true);
      assertCan(request, 'delete', 'Study', current);
      await deleteStudy(tx, id);
      await recordDeletion(tx, 'studies', [id]);
      // Its slides lose what they inherited from it.
      await recomputeInheritance(tx, { scanGroupIds: current.scanGroupIds });
      await recordActivity(tx, {
        actionType: 'delete',
        reference: 'Study',
        referenceId: id,
        diff: { name: current.name },
        creatorUserId: actor.userId,
        organizationId: actor.orgId,
      });
    });
    return { result: { id } };
  });
};
