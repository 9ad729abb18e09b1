// /v2/images/:id/annotations/geojson: an image's annotations as a GeoJSON file in QuPath's layout
// (GET, the annotations the caller may read), and an import of such a file (POST, the file's JSON as
// the body) that creates one annotation per feature, owned by the caller in their organization, with
// the same checks as POST /v2/annotations. The import stores all features or, on any problem, nothing.
import crypto from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  GEOJSON_IMPORT_MAX_BYTES,
  GeoJsonImportResult,
  annotationsToGeoJson,
  importErrorMessage,
  parseGeoJsonImport,
} from '../../api/annotation-geojson';
import { IdParams } from '../../api/common';
import { recordActivities } from '../activities/record';
import { readScopeSql } from '../db/read-scope-sql';
import { annotations } from '../db/schema';
import { apiError, notFound } from '../http/errors';
import { accessOf, assertCreate, scopeOf } from '../http/guard';
import { readableImage } from '../reviews/repository';
import { imageBounds } from './image-bounds';
import { annotationScope, insertAnnotations, toAnnotation } from './repository';

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for both tables. */
const CHUNK = 500;

/** A file name from the image's name: letters, digits, dot, dash and underscore only. */
const fileName = (imageName: string) =>
  `${imageName.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_') || 'annotations'}.geojson`;

export const annotationGeoJsonRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  // The GeoJSON media type parses like JSON (tools such as curl may send it).
  app.addContentTypeParser(
    'application/geo+json',
    { parseAs: 'string', bodyLimit: GEOJSON_IMPORT_MAX_BYTES },
    app.getDefaultJsonParser('error', 'error'),
  );

  app.get('/:id/annotations/geojson', { schema: { params: IdParams } }, async (request, reply) => {
    const image = await readableImage(db, request, request.params.id);
    if (!image) throw notFound('Image');
    const rows = await db
      .select()
      .from(annotations)
      .where(
        and(eq(annotations.imageId, image.id), readScopeSql(scopeOf(request, 'Annotation'), annotationScope)),
      )
      .orderBy(asc(annotations.createdAt), asc(annotations.id));
    const { collection } = annotationsToGeoJson(rows.map(toAnnotation));
    reply
      .type('application/geo+json')
      .header('Content-Disposition', `attachment; filename="${fileName(image.name)}"`);
    return JSON.stringify(collection);
  });

  app.post(
    '/:id/annotations/geojson',
    {
      bodyLimit: GEOJSON_IMPORT_MAX_BYTES,
      schema: { params: IdParams, response: { 200: GeoJsonImportResult } },
      // A file over the limit is refused before it is read, with our limit in the message.
      errorHandler: (error: FastifyError, _request, _reply) => {
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw apiError('GEOJSON_TOO_LARGE');
        throw error;
      },
    },
    async (request) => {
      const { actor } = accessOf(request);
      const owner = { creatorUserId: actor.userId, organizationId: actor.orgId };
      assertCreate(request, 'Annotation', { ...owner, imageId: request.params.id }, [
        'imageId',
        'content',
        'name',
      ]);
      const image = await readableImage(db, request, request.params.id);
      if (!image) throw notFound('Image');
      const parsed = parseGeoJsonImport(request.body, await imageBounds(config.dataDir, image.id));
      if (!parsed.ok) throw apiError('INVALID_GEOJSON', { problems: importErrorMessage(parsed.errors) });
      const rows = parsed.annotations.map((a) => ({
        id: crypto.randomUUID(),
        ...owner,
        imageId: image.id,
        content: a.content,
        name: a.name,
        sourceImageId: null,
        reviewId: null,
      }));
      // One transaction time for all; a microsecond apart so that lists and exports keep the file's order.
      const createdAt = (i: number) => sql`now() + ${i} * interval '1 microsecond'`;
      await db.transaction(async (tx) => {
        for (let i = 0; i < rows.length; i += CHUNK) {
          const chunk = rows.slice(i, i + CHUNK);
          await insertAnnotations(
            tx,
            chunk.map((r, j) => ({ ...r, createdAt: createdAt(i + j) })),
          );
          await recordActivities(
            tx,
            chunk.map((r) => ({
              actionType: 'create',
              reference: 'Annotation',
              referenceId: r.id,
              diff: { imageId: r.imageId, name: r.name },
              creatorUserId: actor.userId,
              organizationId: actor.orgId,
            })),
          );
        }
      });
      return { result: { count: rows.length, annotationIds: rows.map((r) => r.id) } };
    },
  );
};
