// An alignment request in words, and what the app reads of an alignment row: its pair and its result.
import { describe, expect, it } from 'vitest';
import { AlignmentFailureText } from '../../../src/api/alignments';
import type { AlignmentRigid } from '../../../src/api/entities';
import {
  alignmentStatusText,
  isComputing,
  outputOf,
  pairOf,
} from '../../../src/app/viewer/aligned/alignment-status';

const row = (over: Partial<AlignmentRigid>): AlignmentRigid => ({
  id: '00000000-0000-4000-8000-000000000001',
  createdAt: '2026-11-27T00:00:00.000Z',
  updatedAt: '2026-11-27T00:00:00.000Z',
  creatorUserId: null,
  organizationId: '00000000-0000-4000-8000-000000000002',
  type: 'rigid',
  status: 'active',
  error: null,
  outputData: null,
  inputData: { referenceImageId: 'r', targetImageId: 't' },
  ...over,
});

const OUTPUT = {
  matrix: [
    [1, 0, 5],
    [0, 1, 6],
  ],
  rotationDegrees: 0,
  mirrored: false,
  translation: { x: 5, y: 6 },
  score: 0.8765,
};

describe('an alignment request in words', () => {
  it('says Queued, Computing…, Aligned with the score, Failed with the reason', () => {
    expect(alignmentStatusText(row({ status: 'active' }))).toBe('Queued');
    expect(alignmentStatusText(row({ status: 'processing' }))).toBe('Computing…');
    expect(alignmentStatusText(row({ status: 'fulfilled', outputData: OUTPUT }))).toBe(
      'Aligned (score 0.88)',
    );
    expect(alignmentStatusText(row({ status: 'failed', error: AlignmentFailureText.noMatch }))).toBe(
      `Failed: ${AlignmentFailureText.noMatch}`,
    );
  });

  it('is computing only while active or processing', () => {
    expect(isComputing(row({ status: 'active' }))).toBe(true);
    expect(isComputing(row({ status: 'processing' }))).toBe(true);
    expect(isComputing(row({ status: 'fulfilled' }))).toBe(false);
    expect(isComputing(row({ status: 'failed' }))).toBe(false);
  });

  it('reads the pair and a fulfilled result with a usable matrix only', () => {
    expect(pairOf(row({}))).toEqual({ referenceImageId: 'r', targetImageId: 't' });
    expect(pairOf(row({ inputData: { referenceImageId: 'r' } }))).toBeUndefined();
    expect(outputOf(row({ status: 'fulfilled', outputData: OUTPUT }))).toEqual(OUTPUT);
    expect(outputOf(row({ status: 'processing', outputData: OUTPUT }))).toBeUndefined();
    expect(outputOf(row({ status: 'fulfilled', outputData: { matrix: [[1, 0]] } }))).toBeUndefined();
  });
});
