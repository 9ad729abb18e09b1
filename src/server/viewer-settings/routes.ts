// /v2/user-viewer-settings: each user's viewer state per study (channels, colours, exposure...), only
// ever their own (§3, §7). One row per user and study: a POST for a pair that has one merges into it.
// Updates merge top-level keys, so two devices tuning different settings keep both.
import crypto from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, listEnvelope } from '../../api/common';
import { UserViewerSettings } from '../../api/entities';
import {
  CreateViewerSettingsBody,
  UpdateViewerSettingsBody,
  ViewerSettingsListQuery,
  ViewerSettingsResult,
} from '../../api/studies';
import { recordActivity } from '../activities/record';
import { userViewerSettings } from '../db/schema';
import { readScopeSql } from '../db/read-scope-sql';
import { accessOf, assertCreate, assertReadable, assertUpdate, scopeOf } from '../http/guard';
import { ordering, pageOf } from '../lists/list-sql';
import { readableStudy } from '../studies/repository';
import {
  findViewerSettings,
  insertViewerSettings,
  mergeViewerSettings,
  mineFor,
  toSettings,
  viewerSettingsScope,
} from './repository';

export const viewerSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    { schema: { querystring: ViewerSettingsListQuery, response: { 200: listEnvelope(UserViewerSettings) } } },
    async (request) => {
      const q = request.query;
      const where: SQL[] = [];
      const readable = readScopeSql(scopeOf(request, 'UserViewerSettings'), viewerSettingsScope);
      if (readable) where.push(readable);
      if (q.creatorUserId) where.push(eq(userViewerSettings.creatorUserId, q.creatorUserId));
      if (q.studyId) where.push(eq(userViewerSettings.studyId, q.studyId));
      const order = ordering(userViewerSettings.updatedAt, q.orderDirection, userViewerSettings.id);
      const { rows, count } = await pageOf(db, userViewerSettings, where, order, q);
      return { result: rows.map(toSettings), count, page: q.page, limit: q.limit };
    },
  );

  app.post(
    '/',
    {
      schema: {
        body: CreateViewerSettingsBody,
        response: { 200: ViewerSettingsResult },
      },
    },
    async (request) => {
      const { actor } = accessOf(request);
      const body = request.body;
      const studyId = body.studyId ?? null;
      const creatorUserId = body.creatorUserId ?? actor.userId;
      assertCreate(request, 'UserViewerSettings', { creatorUserId, organizationId: actor.orgId });
      if (studyId) await readableStudy(db, request, studyId);
      const row = await db.transaction(async (tx) => {
        // Serialise this user's creates, so two devices cannot make two rows for one study.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`viewer-settings:${creatorUserId}`}))`);
        const existing = await mineFor(tx, creatorUserId, studyId);
        const saved = existing
          ? await mergeViewerSettings(tx, existing.id, body.viewerSettings)
          : await insertViewerSettings(tx, {
              id: crypto.randomUUID(),
              studyId,
              creatorUserId,
              organizationId: actor.orgId,
              viewerSettings: body.viewerSettings,
            });
        await recordActivity(tx, {
          actionType: existing ? 'update' : 'create',
          reference: 'UserViewerSettings',
          referenceId: saved.id,
          diff: { studyId, viewerSettings: body.viewerSettings },
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return saved;
      });
      return { result: toSettings(row) };
    },
  );

  app.patch(
    '/:id',
    { schema: { params: IdParams, body: UpdateViewerSettingsBody, response: { 200: ViewerSettingsResult } } },
    async (request) => {
      const { actor } = accessOf(request);
      const patch = request.body.viewerSettings;
      const row = await findViewerSettings(db, request.params.id);
      assertReadable(request, 'UserViewerSettings', row, 'Viewer settings');
      if (Object.keys(patch).length === 0) return { result: toSettings(row) };
      assertUpdate(request, 'UserViewerSettings', row, { viewerSettings: patch });
      const updated = await db.transaction(async (tx) => {
        const saved = await mergeViewerSettings(tx, row.id, patch);
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'UserViewerSettings',
          referenceId: row.id,
          diff: { viewerSettings: patch },
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return saved;
      });
      return { result: toSettings(updated) };
    },
  );
};
