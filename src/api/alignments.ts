// Requests of /v2/alignments/rigids (spec §3 AlignmentRigid with its query filters, §7): a rigid
// alignment of a target image onto a reference image, requested by a user with
// createOrganizationAlignments and computed later (status active → processing → fulfilled | failed).
import { z } from 'zod';
import { Id } from './common';
import { AlignmentRigid } from './entities';
import { AlignmentStatuses } from './enums';
import { isoDateParam, pageParams, repeated } from './lists';

export const ALIGNMENT_TYPE_MAX = 50;
/** Our bound on the input parameters' JSON (the spec gives none). */
export const ALIGNMENT_INPUT_MAX = 100_000;

export const AlignmentText = {
  unknownImage: 'No such image is available to you',
  sameImage: 'The reference and target images must differ',
  inputTooLarge: `inputData is at most ${ALIGNMENT_INPUT_MAX} characters of JSON`,
} as const;

/** The two images, plus whatever parameters the aligner takes (kept as given). */
export const AlignmentInput = z
  .looseObject({ referenceImageId: Id, targetImageId: Id })
  .refine((v) => JSON.stringify(v).length <= ALIGNMENT_INPUT_MAX, AlignmentText.inputTooLarge);

export const AlignmentCreateBody = z.strictObject({
  alignmentRigid: z.strictObject({
    type: z.string().trim().min(1).max(ALIGNMENT_TYPE_MAX).optional(),
    inputData: AlignmentInput,
    /** Only ever the caller's own. */
    creatorUserId: Id.optional(),
    organizationId: Id.optional(),
  }),
});
export type AlignmentCreateBody = z.input<typeof AlignmentCreateBody>;

/** §3 AlignmentRigid "Query filters"; a date-only end (YYYY-MM-DD) includes that whole day. */
export const AlignmentListQuery = z.object({
  orderBy: z.enum(['createdAt', 'updatedAt']).default('createdAt'),
  ...pageParams(100, 10),
  createdAtStart: isoDateParam.optional(),
  createdAtEnd: isoDateParam.optional(),
  updatedAtStart: isoDateParam.optional(),
  updatedAtEnd: isoDateParam.optional(),
  referenceImageId: repeated(Id),
  targetImageId: repeated(Id),
  organizationId: repeated(Id),
  creatorUserId: repeated(Id),
  type: repeated(z.string().max(ALIGNMENT_TYPE_MAX)),
  status: repeated(z.enum(AlignmentStatuses)),
});
export type AlignmentListQuery = z.infer<typeof AlignmentListQuery>;

export const AlignmentResult = z.object({ result: AlignmentRigid });
