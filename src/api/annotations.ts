// Requests and responses of /v2/annotations (spec §3 Annotation, §6.2, §7 "GET /v2/annotations by
// imageId") and the per-slide annotation counts the slide cards show (§2.9).
import { z } from 'zod';
import { Id } from './common';
import { Annotation } from './entities';
import { pageParams, repeated } from './lists';

/** Our limits (the spec gives none): an annotation's JSON and its name. */
export const ANNOTATION_CONTENT_MAX = 1_000_000;
export const ANNOTATION_NAME_MAX = 200;

/** Our texts where the spec gives only the rule (docs/decisions.md, "Annotations"). */
export const AnnotationText = {
  contentRequired: 'content is required',
  contentTooLarge: `content is at most ${ANNOTATION_CONTENT_MAX} characters of JSON`,
} as const;

const Content = z
  .unknown()
  .refine((v) => v !== undefined, AnnotationText.contentRequired)
  .refine((v) => JSON.stringify(v ?? null).length <= ANNOTATION_CONTENT_MAX, AnnotationText.contentTooLarge);

const fields = {
  imageId: Id,
  content: Content,
  name: z.string().max(ANNOTATION_NAME_MAX),
  sourceImageId: Id.nullable(),
  reviewId: Id.nullable(),
  /** Only ever the caller's own ('You can only create annotations for yourself'). */
  creatorUserId: Id,
  organizationId: Id,
};

export const AnnotationCreateBody = z.strictObject({
  annotation: z.strictObject({
    ...fields,
    name: fields.name.optional(),
    sourceImageId: fields.sourceImageId.optional(),
    reviewId: fields.reviewId.optional(),
    creatorUserId: fields.creatorUserId.optional(),
    organizationId: fields.organizationId.optional(),
  }),
});
export type AnnotationCreateBody = z.input<typeof AnnotationCreateBody>;

/**
 * Any field may be sent back; only changed ones count, and §6.2 lets one's own annotation change its
 * content alone. Timestamps are ignored.
 */
export const AnnotationPatchBody = z.strictObject({
  annotation: z
    .strictObject({ ...fields, createdAt: z.string().max(40), updatedAt: z.string().max(40) })
    .partial(),
});
export type AnnotationPatchBody = z.input<typeof AnnotationPatchBody>;

export const AnnotationListQuery = z.object({
  imageId: repeated(Id),
  reviewId: repeated(Id),
  creatorUserId: Id.optional(),
  orderBy: z.enum(['createdAt', 'updatedAt']).default('createdAt'),
  ...pageParams(100, 100),
});
export type AnnotationListQuery = z.infer<typeof AnnotationListQuery>;

/** GET /v2/annotations/counts?scanGroupId=…: readable annotations on each slide's images. */
export const AnnotationCountsQuery = z.object({ scanGroupId: repeated(Id) });
export const AnnotationCounts = z.object({ counts: z.record(z.string(), z.number().int()) });
export type AnnotationCounts = z.infer<typeof AnnotationCounts>;

export const AnnotationResult = z.object({ result: Annotation });
