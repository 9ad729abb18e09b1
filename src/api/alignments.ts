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
  inputTooLarge: `inputData is at most ${ALIGNMENT_INPUT_MAX} characters of JSON`,
} as const;

/** Why a computed alignment ended `failed` (its `error`), for the requester. */
export const AlignmentFailureText = {
  referenceGone: 'The reference image no longer exists',
  targetGone: 'The target image no longer exists',
  referenceNotReady: 'The reference image has not finished processing, so it has no pixels to align',
  targetNotReady: 'The target image has not finished processing, so it has no pixels to align',
  noTissueReference: 'No tissue was found on the reference image',
  noTissueTarget: 'No tissue was found on the target image',
  noMatch: 'The two images share too little tissue to be aligned',
  unexpected: 'The alignment could not be computed; request it again, and report it if it fails again',
} as const;
export type AlignmentFailureReason = keyof typeof AlignmentFailureText;

/** What a fulfilled rigid alignment stores as its outputData. */
export interface RigidAlignmentOutput {
  /**
   * [[a, b, tx], [c, d, ty]]: a target level-0 pixel (x, y) lies on the reference's level-0 pixel
   * (a·x + b·y + tx, c·x + d·y + ty). Includes the ratio of the two pixel sizes when both are known.
   */
  matrix: [[number, number, number], [number, number, number]];
  /** Clockwise on screen (y points down), −180 … 180, applied after the flip when mirrored. */
  rotationDegrees: number;
  /** The target is flipped left to right (the slide was placed face down), then rotated. */
  mirrored: boolean;
  /** Level-0 reference pixels: (tx, ty). */
  translation: { x: number; y: number };
  /** Cosine similarity of the two tissue signals once aligned: 1 is a perfect match. */
  score: number;
}

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
