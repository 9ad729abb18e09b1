// /v2/upload-groups: what became of the caller's uploads (the rows of the uploader and of
// /all-recent-uploads poll this every 2.5 s, §9), and the label repair of §2.3 (?fixUpload,
// ?fixCreateUpload): applying a slide label to an uploaded image whose label was not recognized.
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listEnvelope } from '../../api/common';
import { normalizeSimpleId } from '../../api/scan-groups';
import {
  ApplyLabelBody,
  UploadGroup,
  UploadGroupListQuery,
  UploadGroupParams,
  UploadGroupResult,
} from '../../api/uploads';
import { recordActivity } from '../activities/record';
import { images, scanGroups } from '../db/schema';
import { actorOf } from '../http/authenticate';
import { apiError, HttpError, notFound } from '../http/errors';
import { assertCan } from '../http/guard';
import { fromScanGroup } from '../scan-groups/inheritance';
import { readableScanGroup, stampLastUpload } from '../scan-groups/repository';
import { applyLabel, findGroup, listGroups, loadGroup } from './repository';
import { followSlideOrders } from '../orders/follow';

export const uploadGroupRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/',
    { schema: { querystring: UploadGroupListQuery, response: { 200: listEnvelope(UploadGroup) } } },
    async (request) => listGroups(db, actorOf(request).user.id, request.query.page, request.query.limit),
  );

  app.get(
    '/:groupId',
    { schema: { params: UploadGroupParams, response: { 200: UploadGroupResult } } },
    async (request) => {
      const group = await loadGroup(db, request.params.groupId);
      if (!group || (await findGroup(db, group.id))?.creatorUserId !== actorOf(request).user.id)
        throw notFound('Upload');
      return { result: group };
    },
  );

  app.post(
    '/:groupId/label',
    { schema: { params: UploadGroupParams, body: ApplyLabelBody, response: { 200: UploadGroupResult } } },
    async (request) => {
      const actor = actorOf(request);
      const group = await findGroup(db, request.params.groupId);
      if (!group || group.creatorUserId !== actor.user.id) throw notFound('Upload');
      if (group.status !== 'complete' || !group.imageId) throw apiError('NOT_COMPLETE');
      const [image] = await db.select().from(images).where(eq(images.id, group.imageId));
      if (!image) throw notFound('Image');
      // Labelling is part of uploading: the uploader, with the upload permission, on an active image.
      assertCan(request, 'create', 'Image', {
        organizationId: actor.organization.id,
        creatorUserId: actor.user.id,
        storageStatus: image.storageStatus as 'active',
      });
      const body = request.body;
      let slideId = body.scanGroupId;
      if (body.simpleId !== undefined) {
        const [bySimple] = await db
          .select({ id: scanGroups.id })
          .from(scanGroups)
          .where(eq(scanGroups.simpleId, normalizeSimpleId(body.simpleId)));
        if (!bySimple) throw labelNotFound();
        slideId = bySimple.id;
      }
      await db.transaction(async (tx) => {
        // A slide the caller cannot read is answered like one that does not exist.
        const { row: slide } = await readableScanGroup(tx, request, slideId!, true).catch((e: unknown) => {
          throw e instanceof HttpError && e.statusCode === 404 ? labelNotFound() : e;
        });
        if (slide.storageStatus !== 'active') throw apiError('SLIDE_ARCHIVED');
        // The label is the glass slide's: every scene's image of the file joins the slide.
        const labelled = await applyLabel(
          tx,
          { imageId: image.id, groupId: group.id },
          { id: slide.id, simpleId: slide.simpleId, inheritedAssignees: fromScanGroup(slide) },
        );
        await stampLastUpload(tx, slide.id);
        await followSlideOrders(tx, [slide.id]); // its orders follow the image
        for (const { id } of labelled)
          await recordActivity(tx, {
            actionType: 'update',
            reference: 'Image',
            referenceId: id,
            diff: { scanGroupId: slide.id },
            creatorUserId: actor.user.id,
            organizationId: actor.organization.id,
          });
      });
      return { result: (await loadGroup(db, group.id))! };
    },
  );
};

const labelNotFound = () => apiError('LABEL_NOT_FOUND');
