// GET /v2/images/:id/tiles/<file>: the DZI descriptors, tiles, layers.json, thumbnail and label of a
// processed image, for anyone who may read the image. Tiles never change for an image id, so they are
// served with long-lived private caching and ETags (the service worker may keep them: same access rule).
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { StorageStatus } from '../../api/enums';
import { images } from '../db/schema';
import { notFound } from '../http/errors';
import { assertReadable } from '../http/guard';
import { tilesDir } from './files';

const FILE =
  /^(?:[a-z0-9]+\.dzi|[a-z0-9]+_files\/\d{1,2}\/\d{1,6}_\d{1,6}\.jpeg|layers\.json|thumbnail\.jpg|label\.png)$/;
const TYPES: Record<string, string> = {
  '.dzi': 'application/xml',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.json': 'application/json',
};

export const tileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:id/tiles/*',
    {
      schema: {
        params: z.object({ id: z.uuid({ message: 'must be a valid id' }), '*': z.string().max(200) }),
        hide: true,
      },
    },
    async (request, reply) => {
      const file = request.params['*'];
      if (!FILE.test(file)) throw notFound('Tile');
      const [image] = await app.ctx.db.select().from(images).where(eq(images.id, request.params.id));
      const subject = image && {
        id: image.id,
        organizationId: image.organizationId,
        creatorUserId: image.creatorUserId,
        inheritedAssignees: image.inheritedAssignees,
        scanGroupId: image.scanGroupId ?? undefined,
        storageStatus: image.storageStatus as StorageStatus,
      };
      assertReadable(request, 'Image', subject, 'Image');
      const full = path.join(tilesDir(app.ctx.config.dataDir, image.id), file);
      const stat = await fs.promises.stat(full).catch(() => undefined);
      if (!stat) throw notFound('Tile');
      const etag = `"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"`;
      reply.header('ETag', etag).header('Cache-Control', 'private, max-age=31536000, immutable');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      reply.type(TYPES[path.extname(file)] ?? 'application/octet-stream').header('Content-Length', stat.size);
      return reply.send(fs.createReadStream(full));
    },
  );
};
