// GET /v2/files/:token: the file behind a signed URL (file-urls.ts), without sign-in, so the browser
// can download it directly with progress. Checks the signature and expiry, refuses originals of
// images whose storage is not active (§5), and honours a single byte Range for resumed downloads.
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PREVIEW_URL_CACHE_SECONDS } from '../../api/images';
import { SLIDE_FORMATS } from '../../api/slide-formats';
import { loadSigningSecret } from '../auth/secret';
import { apiError, apiErrorBody } from '../http/errors';
import { previewKey } from '../processing/derived';
import { fileSigner } from './file-urls';
import { uploadRuntime } from '../uploads/runtime';
import { findImage, imageFilePath, type ImageFileKind, type ImageRow } from './repository';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  ...Object.fromEntries(SLIDE_FORMATS.flatMap((f) => f.extensions.map((e) => [e, f.mediaType]))),
};

type Range = { start: number; end: number };

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; 'unsatisfiable' → 416; anything else → whole file. */
export function parseRange(header: string | undefined, size: number): Range | 'unsatisfiable' | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0
      ? 'unsatisfiable'
      : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start >= size || start > end ? 'unsatisfiable' : { start, end };
}

interface ServedFile {
  name: string;
  size: number;
  open(range?: Range): Promise<Readable>;
}

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  const signer = fileSigner(await loadSigningSecret(app.ctx.db, app.ctx.config.jwtSecret));

  /**
   * Originals and previews come from the file storage (disk or bucket); previews of an install
   * processed before they were stored there, from its tiles folder.
   */
  async function fileOf(image: ImageRow, kind: ImageFileKind): Promise<ServedFile | undefined> {
    const storage = uploadRuntime(app).deps.storage;
    const key =
      kind === 'original'
        ? image.storageKey
        : previewKey(image.id, kind === 'thumbnail' ? 'thumbnail.jpg' : 'label.png');
    const size = key ? await storage.size(key) : undefined;
    if (key && size !== undefined) return { name: key, size, open: (range) => storage.stream(key, range) };
    if (kind === 'original') return undefined;
    const file = imageFilePath(app.ctx.config.dataDir, image, kind);
    const stat = file ? await fs.promises.stat(file).catch(() => undefined) : undefined;
    if (!file || !stat?.isFile()) return undefined;
    return {
      name: file,
      size: stat.size,
      open: async (range) => fs.createReadStream(file, range && { start: range.start, end: range.end }),
    };
  }

  app.get(
    '/:token',
    { config: { public: true }, schema: { params: z.object({ token: z.string().max(200) }), hide: true } },
    async (request, reply) => {
      const claim = signer.verify(request.params.token);
      if (!claim) throw apiError('LINK_INVALID');
      const image = await findImage(app.ctx.db, claim.imageId);
      if (!image) throw apiError('FILE_MISSING');
      if (claim.kind === 'original' && image.storageStatus !== 'active')
        throw apiError('DENIED_DOWNLOAD_INACTIVE');
      const file = await fileOf(image, claim.kind);
      if (!file) throw apiError('FILE_MISSING');

      reply
        .header('Accept-Ranges', 'bytes')
        .type(TYPES[path.extname(file.name).toLowerCase()] ?? 'application/octet-stream')
        .header(
          'Cache-Control',
          claim.kind === 'original' ? 'private, no-store' : `private, max-age=${PREVIEW_URL_CACHE_SECONDS}`,
        );
      if (claim.kind === 'original')
        reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(image.name)}`);
      const range = parseRange(request.headers.range, file.size);
      if (range === 'unsatisfiable')
        return reply
          .status(416)
          .type('application/json; charset=utf-8')
          .removeHeader('Content-Disposition')
          .header('Content-Range', `bytes */${file.size}`)
          .send(apiErrorBody('RANGE_NOT_SATISFIABLE'));
      if (!range) return reply.header('Content-Length', file.size).send(await file.open());
      return reply
        .status(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
        .header('Content-Length', range.end - range.start + 1)
        .send(await file.open(range));
    },
  );
};
