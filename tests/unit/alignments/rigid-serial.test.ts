// The rigid aligner on generated serial sections (pairs.ts: the next cut of the same block, bent a
// little, other nuclei), turned and face down, within 0.5 % of the slide's size; a picture without
// tissue, or with other tissue, fails with its reason.
import { describe, expect, it } from 'vitest';
import { AlignmentFailure, alignRigid } from '../../../src/server/alignments/compute/rigid';
import { expectRecovered, reference, REFERENCE, type Case } from './pairs';
import { picture, tissueField } from './synthetic';

const CASES: Case[] = [
  {
    name: 'a serial section, not rotated',
    degrees: 0,
    mirrored: false,
    target: REFERENCE,
    at: [2000, 1450],
    serial: true,
  },
  {
    name: 'a serial section turned 37°',
    degrees: 37,
    mirrored: false,
    target: REFERENCE,
    at: [1950, 1500],
    serial: true,
  },
  {
    name: 'a serial section face down, turned 163°',
    degrees: 163,
    mirrored: true,
    target: REFERENCE,
    at: [2050, 1550],
    serial: true,
  },
];

describe('alignRigid on serial sections and bad pairs', () => {
  for (const c of CASES) it(`recovers ${c.name} within 0.5 % of the slide`, () => expectRecovered(c));

  it('fails with the reason when a picture has no tissue, or the tissue is another', async () => {
    const blank = { ...REFERENCE, picture: picture(() => [240, 240, 242], REFERENCE, 512) };
    const reason = async (f: () => Promise<unknown>) => {
      try {
        await f();
      } catch (error) {
        if (error instanceof AlignmentFailure) return error.reason;
        throw error;
      }
      return 'aligned';
    };
    expect(await reason(() => alignRigid(reference, blank))).toBe('noTissueTarget');
    expect(await reason(() => alignRigid(blank, reference))).toBe('noTissueReference');
    for (const seed of [101, 202, 303]) {
      const other = tissueField({ seed, centre: [2000, 1500], size: 1400 });
      const unrelated = { ...REFERENCE, picture: picture(other, REFERENCE, 512) };
      expect(await reason(() => alignRigid(reference, unrelated)), `seed ${seed}`).toBe('noMatch');
    }
  });
});
