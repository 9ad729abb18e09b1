// The rigid aligner on generated slide pictures (pairs.ts): a moved copy of a slide, turned by any angle
// (0°, 90°, 37°, −128°, 200°), placed face down, or on a larger slide or scanned at another pixel size,
// is recovered within 0.5 % of the slide's size.
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { thumbnailJpeg } from '../../../src/server/processing/previews';
import { openSlide } from '../../../src/server/slides/registry';
import { alignRigid, type AlignSource } from '../../../src/server/alignments/compute/rigid';
import { expectRecovered, reference, referenceField, REFERENCE, TOLERANCE, type Case } from './pairs';
import { cornerError, picture, rigid, type Matrix } from './synthetic';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../shared/fixtures');

const CASES: Case[] = [
  { name: 'a moved copy, not rotated', degrees: 0, mirrored: false, target: REFERENCE, at: [1700, 1650] },
  {
    name: 'a copy turned 90°',
    degrees: 90,
    mirrored: false,
    target: { width: 3000, height: 4000 },
    at: [1500, 2200],
    pictureWidth: 384,
  },
  { name: 'a copy turned 37° and moved', degrees: 37, mirrored: false, target: REFERENCE, at: [2300, 1500] },
  { name: 'a copy placed face down', degrees: 0, mirrored: true, target: REFERENCE, at: [1900, 1500] },
  {
    name: 'a copy face down and turned −128°',
    degrees: -128,
    mirrored: true,
    target: REFERENCE,
    at: [2000, 1600],
  },
  {
    name: 'a copy turned 200° on a larger slide',
    degrees: 200,
    mirrored: false,
    target: { width: 6000, height: 4000 },
    at: [3500, 2100],
  },
];

describe('alignRigid on moved copies', () => {
  for (const c of CASES) it(`recovers ${c.name} within 0.5 % of the slide`, () => expectRecovered(c));

  it('scales by the ratio of the pixel sizes when both are known', async () => {
    // The target scanned at half the resolution: its level 0 is half as large for the same tissue.
    const target: AlignSource = {
      width: 2000,
      height: 1500,
      pixelSizeUm: 0.5,
      picture: picture(referenceField, { width: 2000, height: 1500 }, 512, [
        [2, 0, 0],
        [0, 2, 0],
      ]),
    };
    const found = await alignRigid({ ...reference, pixelSizeUm: 0.25 }, target);
    const truth: Matrix = [
      [2, 0, 0],
      [0, 2, 0],
    ];
    expect(cornerError(truth, found.matrix, target, REFERENCE)).toBeLessThan(TOLERANCE);
  });

  it("recovers a real slide's thumbnail turned 37° and 110° face down by sharp", async () => {
    const slide = await openSlide([path.join(FIXTURES, 'qptiff/brightfield.qptiff')]);
    const jpeg = await thumbnailJpeg(slide).finally(() => slide.close());
    const rgb = async (img: ReturnType<typeof sharp>) => {
      const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
      return { width: info.width, height: info.height, data: new Uint8Array(data), channels: 3 as const };
    };
    const ref = await rgb(sharp(jpeg));
    // Each picture pixel stands for 4 level-0 pixels.
    const refSource: AlignSource = { picture: ref, width: ref.width * 4, height: ref.height * 4 };
    for (const [degrees, mirrored] of [
      [37, false],
      [110, true],
    ] as const) {
      const turned = await rgb(
        (mirrored ? sharp(jpeg).flop() : sharp(jpeg)).rotate(degrees, { background: '#ffffff' }),
      );
      const target: AlignSource = { picture: turned, width: turned.width * 4, height: turned.height * 4 };
      const found = await alignRigid(refSource, target);
      // sharp turns clockwise about the middle into a canvas grown to fit: the target's middle shows
      // the reference's, and a target point lies at flip·turn(−degrees) of its offset from there.
      const [[a, b], [c, d]] = rigid(-degrees, false, 0, 0);
      const m = mirrored ? [-a, -b, c, d] : [a, b, c, d];
      const [tx, ty] = [target.width / 2, target.height / 2];
      const truth: Matrix = [
        [m[0], m[1], refSource.width / 2 - (m[0] * tx + m[1] * ty)],
        [m[2], m[3], refSource.height / 2 - (m[2] * tx + m[3] * ty)],
      ];
      const error = cornerError(truth, found.matrix, target, refSource);
      console.info(
        `fixture turned ${degrees}°${mirrored ? ' face down' : ''}: error ${(error * 100).toFixed(3)} %`,
      );
      expect(error).toBeLessThan(TOLERANCE);
      expect(found.mirrored).toBe(mirrored);
    }
  });
});
