// GET /v2/scan-groups/:id/label.zpl and /label.png: a slide's printable label, for whoever may print it.
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { organs, scanGroups } from '../db/schema';
import { assertCan, assertReadable } from '../http/guard';
import { labelPng, labelZpl, type LabelContent } from './zpl';

const Params = z.object({ id: z.uuid({ message: 'must be a valid id' }) });

export const labelRoutes: FastifyPluginAsyncZod = async (app) => {
  const load = async (request: Parameters<typeof assertCan>[0], id: string): Promise<LabelContent> => {
    const [sg] = await app.ctx.db.select().from(scanGroups).where(eq(scanGroups.id, id));
    assertReadable(
      request,
      'ScanGroup',
      sg && { ...sg, storageStatus: undefined, archiveAt: undefined },
      'Slide',
    );
    const [organ] = sg.organId ? await app.ctx.db.select().from(organs).where(eq(organs.id, sg.organId)) : [];
    return {
      simpleId: sg.simpleId,
      organ: organ?.name,
      animal: sg.animal ?? organ?.animal,
      date: sg.createdAt,
    };
  };

  app.get('/:id/label.zpl', { schema: { params: Params } }, async (request, reply) => {
    const label = await load(request, request.params.id);
    return reply
      .type('application/zpl; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="label-${label.simpleId}.zpl"`)
      .send(labelZpl(label));
  });

  app.get('/:id/label.png', { schema: { params: Params } }, async (request, reply) => {
    const label = await load(request, request.params.id);
    return reply
      .type('image/png')
      .header('Cache-Control', 'private, max-age=60')
      .send(await labelPng(label));
  });
};
