// What the user reads about an alignment request: the texts of 'Align with…' and an alignment's state in
// words (Queued, Computing…, Aligned with its score, Failed with the server's reason), and what an
// alignment row holds: its pair of images and, once fulfilled, its result.
import type { RigidAlignmentOutput } from '../../../api/alignments';
import type { AlignmentRigid } from '../../../api/entities';

export const AlignText = {
  open: 'Align with…',
  title: 'Align two images',
  reference: 'Reference image',
  target: 'Target image (moved onto the reference)',
  swap: 'Swap reference and target',
  request: 'Align',
  openAligned: 'Open aligned view',
  alreadyAligned: 'These two images are already aligned.',
  queued: 'Queued',
  computing: 'Computing…',
  aligned: 'Aligned',
  failed: 'Failed',
  offline: 'Aligning needs a connection: the server computes the alignment. Try again once you are online.',
  sameImage: 'Pick two different images.',
} as const;

/** The alignment's state in words, as the dialog shows it. */
export function alignmentStatusText(a: AlignmentRigid): string {
  switch (a.status) {
    case 'active':
      return AlignText.queued;
    case 'processing':
      return AlignText.computing;
    case 'fulfilled': {
      const score = outputOf(a)?.score;
      return typeof score === 'number'
        ? `${AlignText.aligned} (score ${score.toFixed(2)})`
        : AlignText.aligned;
    }
    case 'failed':
      return `${AlignText.failed}: ${a.error ?? ''}`.trim();
    default:
      return a.status;
  }
}

export const isComputing = (a: Pick<AlignmentRigid, 'status'> | undefined) =>
  a?.status === 'active' || a?.status === 'processing';

/** The two images an alignment was requested for (its inputData). */
export function pairOf(a: AlignmentRigid): { referenceImageId: string; targetImageId: string } | undefined {
  const input = a.inputData as { referenceImageId?: unknown; targetImageId?: unknown } | null;
  if (typeof input?.referenceImageId !== 'string' || typeof input.targetImageId !== 'string')
    return undefined;
  return { referenceImageId: input.referenceImageId, targetImageId: input.targetImageId };
}

/** A fulfilled alignment's result, when it has a usable matrix. */
export function outputOf(a: AlignmentRigid | undefined): RigidAlignmentOutput | undefined {
  if (a?.status !== 'fulfilled') return undefined;
  const out = a.outputData as Partial<RigidAlignmentOutput> | null;
  const m = out?.matrix;
  const row = (r: unknown) => Array.isArray(r) && r.length === 3 && r.every((v) => Number.isFinite(v));
  return Array.isArray(m) && m.length === 2 && row(m[0]) && row(m[1])
    ? (out as RigidAlignmentOutput)
    : undefined;
}
