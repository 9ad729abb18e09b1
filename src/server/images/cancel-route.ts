// POST /v2/images/:id/cancel: stops an image's processing (docs/api.md "Images"). Allowed to a super
// admin, the organization's administrators and slide managers, and the uploader (src/access,
// 'cancel'). The image ends failed with info.code 'aborted' (its upload row shows 'Canceled'); its
// process-image job is failed so it is never taken again, and stops at its next band of tiles if it
// runs.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../api/common';
import { CANCELED_INFO, ImageResult } from '../../api/images';
import { recordActivity } from '../activities/record';
import { apiError } from '../http/errors';
import { accessOf, assertCan } from '../http/guard';
import { PROCESS_IMAGE } from '../jobs/kinds';
import { cancelJobs } from '../jobs/queue';
import { followImageOrders } from '../orders/follow';
import { WAITING } from '../processing/process-image';
import { imageSubject, markImageCanceled, readableImage, toImage } from './repository';
import { redacted } from './routes';

export const imageCancelRoute: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  app.post(
    '/:id/cancel',
    { schema: { params: IdParams, response: { 200: ImageResult } } },
    async (request) => {
      const { actor } = accessOf(request);
      const { image, jobIds } = await db.transaction(async (tx) => {
        const { row, entity } = await readableImage(tx, request, request.params.id, true);
        assertCan(request, 'cancel', 'Image', imageSubject(entity));
        if (!WAITING.includes(row.status)) throw apiError('NOT_PROCESSING');
        // Locked and seen waiting above: the update finds it.
        const updated = await markImageCanceled(tx, row.id, WAITING);
        const ids = await cancelJobs(tx, PROCESS_IMAGE, 'imageId', row.id, CANCELED_INFO.desc);
        await recordActivity(tx, {
          actionType: 'update',
          reference: 'Image',
          referenceId: row.id,
          diff: { status: 'failed', info: CANCELED_INFO },
          creatorUserId: actor.userId,
          organizationId: actor.orgId,
        });
        return { image: toImage(updated!), jobIds: ids };
      });
      for (const id of jobIds) app.ctx.jobs.cancel(id);
      // The slide's orders follow its images (src/server/orders/follow.ts), as when processing fails.
      await followImageOrders(db, image.id);
      return { result: redacted(request, image) };
    },
  );
};
