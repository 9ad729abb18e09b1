// GET /v2/images/:id/tiles/<file>: the DZI descriptors, tiles, layers.json, thumbnail and label of a
// processed image (from the file storage: its pyramid pack and preview objects, derived.ts; or the
// loose files of an install processed before packs), for anyone who may read the image (the pyramid only while the image's storage is
// active), decided per user and image by tile-access.ts; while the pyramid is being written, what it
// lacks is made on demand from the original (tile-on-demand.ts). Tiles never change for an image id, so
// they are served with long-lived private caching and ETags (the service worker keeps them per user, so
// slides seen before open offline: sw/tiles.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError, deniedError, notFound } from '../http/errors';
import {
  isPreview,
  previewKey,
  pyramidDone,
  readKey,
  readPacked,
  statLoose,
  storageOf,
  type PackedFile,
} from './derived';
import { tilesDir } from './files';
import { PackError } from './pack-format';
import { sendOnDemand } from './tile-on-demand';

const FILE =
  /^(?:[a-z0-9]+\.dzi|[a-z0-9]+_files\/\d{1,2}\/\d{1,6}_\d{1,6}\.jpeg|layers\.json|thumbnail\.jpg|label\.png)$/;
/** The pictures that stay readable once the image is archived (docs/decisions.md "Tile access"). */
const UNARCHIVED = /^(?:thumbnail\.jpg|label\.png)$/;
const TYPES: Record<string, string> = {
  '.dzi': 'application/xml',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.json': 'application/json',
};

/**
 * Loose files (an install processed before packs) up to this size are read in one go and sent as one
 * buffer: tiles are tens of KiB, and a stream's open, reads, close and piping cost more of the server's
 * CPU than the bytes (bench/tiles.ts).
 */
const WHOLE_READ_MAX = 4 * 1024 * 1024;

/** The first `size` bytes of the file, in one read; the file is closed behind the answer. */
function readWhole(full: string, size: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    fs.open(full, 'r', (openError, fd) => {
      if (openError) return reject(openError);
      const buffer = Buffer.allocUnsafe(size);
      fs.read(fd, buffer, 0, size, 0, (readError, bytesRead) => {
        fs.close(fd, () => undefined);
        if (readError) reject(readError);
        else resolve(bytesRead === size ? buffer : buffer.subarray(0, bytesRead));
      });
    });
  });
}

/** A preview's ETag: a hash of its bytes (tens of KiB, asked for far less often than tiles). */
const previewEtag = (bytes: Buffer) =>
  `"v-${crypto.createHash('sha1').update(bytes).digest('hex').slice(0, 20)}"`;

/**
 * A stored derived file of the image: from its pack (a pyramid file) or its own key (a preview);
 * 'absent' when the pyramid is complete without it; undefined when it is not there (yet). A damaged
 * pack is logged and answered with TILE_UNREADABLE, so the viewer shows a gap, not a broken server.
 */
async function storedFile(
  dataDir: string,
  imageId: string,
  file: string,
  log: FastifyBaseLogger,
): Promise<PackedFile | 'absent' | undefined> {
  const storage = storageOf(dataDir);
  try {
    if (!isPreview(file)) return await readPacked(storage, dataDir, imageId, file);
    const bytes = await readKey(storage, previewKey(imageId, file));
    return bytes ? { body: bytes, etag: previewEtag(bytes) } : undefined;
  } catch (error) {
    if (!(error instanceof PackError)) throw error;
    log.error({ err: error, imageId, file }, 'pyramid pack unreadable');
    throw apiError('TILE_UNREADABLE');
  }
}

export const tileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:id/tiles/*',
    {
      // The caller's actor is checked by tile-access.ts along with its decision (one statement at
      // most every few seconds), not by a statement per tile.
      config: { checksActor: true },
      // A viewer asks for hundreds of tiles a second: no request log lines for them, only problems.
      logLevel: 'warn',
      schema: {
        params: z.object({ id: z.uuid({ message: 'must be a valid id' }), '*': z.string().max(200) }),
        hide: true,
      },
    },
    async (request, reply) => {
      const file = request.params['*'];
      if (!FILE.test(file)) throw notFound('Tile');
      const verdict = await app.tileAccess.verdictFor(request, request.params.id);
      // Another's image is answered as not found, as everywhere (http/guard.ts assertReadable).
      if (!verdict.readable) throw notFound('Image');
      if (verdict.pyramidDenial && !UNARCHIVED.test(file)) throw deniedError(verdict.pyramidDenial);
      const { dataDir } = app.ctx.config;
      const imageId = request.params.id;
      const stored = await storedFile(dataDir, imageId, file, request.log);
      const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
      if (stored && stored !== 'absent') {
        reply.header('ETag', stored.etag).header('Cache-Control', 'private, max-age=31536000, immutable');
        if (request.headers['if-none-match'] === stored.etag) return reply.status(304).send();
        return reply.type(type).send(stored.body);
      }
      // Loose files of an install processed before packs.
      const full = path.join(tilesDir(dataDir, imageId), file);
      const stat = await statLoose(full);
      if (!stat) {
        if (stored === 'absent' || (await pyramidDone(storageOf(dataDir), dataDir, imageId)))
          throw notFound('Tile');
        // Not written yet (the pyramid is being built): made from the original (tile-on-demand.ts).
        return sendOnDemand(app.ctx, request.log, reply, imageId, file);
      }
      const etag = `"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"`;
      reply.header('ETag', etag).header('Cache-Control', 'private, max-age=31536000, immutable');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      reply.type(type);
      if (stat.size > WHOLE_READ_MAX)
        return reply.header('Content-Length', stat.size).send(fs.createReadStream(full));
      // Gone since its stat (the image deleted meanwhile): not found, as a file never there.
      const bytes = await readWhole(full, stat.size).catch(() => undefined);
      if (!bytes) throw notFound('Tile');
      return reply.send(bytes);
    },
  );
};
