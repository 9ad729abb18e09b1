// Scenes: a CZI holding three scenes opens as three slides (one per scene), each with its own size,
// origin, pyramid and exact pixels; a scene the file lacks and a scene without full-resolution pixels
// are refused with their reasons; the readers without scenes say one and refuse another.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSlide } from '../../../src/server/slides/registry';
import type { RawImage } from '../../../src/server/slides/types';
import { FIXTURE_TABLE, uploadFiles } from './fixtures';
import { cziXml, writeCzi } from './gen/czi-writer';
import { scenePixel, THREE_SCENES, threeSceneCzi } from './gen/scenes';
import { COMP, PT, tempDir } from './gen/slides';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The RGB bytes scene `s` should show over w×h from its pixel (x0, y0), every `step` pixels. */
function expected(s: number, x0: number, y0: number, w: number, h: number, step = 1): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) out.set(scenePixel(s, x0 + x * step, y0 + y * step), (y * w + x) * 3);
  return out;
}

const differing = (img: RawImage, want: Uint8Array) => img.data.filter((v, i) => v !== want[i]).length;

describe('a generated 3-scene CZI', () => {
  it('opens scene 0 by default and says the file holds three', async () => {
    const s = await openSlide([await threeSceneCzi(dir)]);
    expect([s.scenes, s.scene, s.levels[0].width, s.levels[0].height]).toEqual([3, 0, 295, 122]);
    await s.close();
  });

  it('gives each scene its own size, at its own origin, with exact pixels', async () => {
    const path = await threeSceneCzi(dir);
    for (const [scene, fact] of THREE_SCENES.entries()) {
      const s = await openSlide([path], { scene });
      expect([s.scene, s.scenes, s.kind, s.levels[0].width, s.levels[0].height]).toEqual([
        scene,
        3,
        'brightfield',
        fact.width,
        fact.height,
      ]);
      expect(s.pixelSizeUm?.x).toBeCloseTo(0.22, 9);
      const img = await s.readRegion(0, 0, 0, fact.width, fact.height);
      expect(differing(img, expected(scene, 0, 0, fact.width, fact.height))).toBe(0);
      // Nothing of another scene leaks in: past the scene's right edge is background.
      expect([...(await s.readRegion(0, fact.width, 0, 1, 1)).data]).toEqual([255, 255, 255]);
      await s.close();
    }
  });

  it("reads scene 2's ×2 level from its own pyramid subblock, and its mosaic seam exactly", async () => {
    const s = await openSlide([await threeSceneCzi(dir)], { scene: 2 });
    expect(s.levels.slice(0, 2).map((l) => [l.width, l.height, l.downsample, l.stored])).toEqual([
      [352, 237, 1, true],
      [176, 119, 2, true],
    ]);
    const seam = await s.readRegion(0, 190, 100, 20, 10);
    expect(differing(seam, expected(2, 190, 100, 20, 10))).toBe(0);
    const half = await s.readRegion(1, 0, 0, 176, 118);
    expect(differing(half, expected(2, 0, 0, 176, 118, 2))).toBe(0);
    await s.close();
  });

  it('refuses a scene the file does not have', async () => {
    const path = await threeSceneCzi(dir);
    await expect(openSlide([path], { scene: 3 })).rejects.toMatchObject({
      code: 'bad_request',
      message: 'Scene 3 does not exist: the slide has 3 scenes',
    });
    await expect(openSlide([path], { scene: -1 })).rejects.toMatchObject({
      message: 'Scene -1 does not exist: the slide has 3 scenes',
    });
  });

  it('fails a scene that has only pyramid subblocks, and opens the others', async () => {
    const px = (w: number, h: number) => new Uint8Array(w * h * 3).fill(90);
    const blocks = [
      { x: 0, y: 0, w: 32, h: 32, s: 0, pixelType: PT.Bgr24, compression: COMP.None, data: px(32, 32) },
      {
        ...{ x: 900, y: 0, w: 64, h: 64, storedW: 32, storedH: 32, s: 1 },
        ...{ pixelType: PT.Bgr24, compression: COMP.None, data: px(32, 32) },
      },
    ];
    const path = join(dir, 'empty-scene.czi');
    writeFileSync(path, writeCzi(blocks, cziXml()));
    const first = await openSlide([path]);
    expect([first.scenes, first.levels[0].width]).toEqual([2, 32]);
    await first.close();
    await expect(openSlide([path], { scene: 1 })).rejects.toMatchObject({
      code: 'no_image',
      message: 'CZI scene 2 has no full-resolution subblocks',
    });
  });
});

describe('readers and files without scenes', () => {
  for (const f of FIXTURE_TABLE.filter((x) => x.format)) {
    it(`${f.file} is one scene, and another is refused`, async () => {
      const s = await openSlide(uploadFiles(f.file));
      expect([s.scenes, s.scene]).toEqual([1, 0]);
      await s.close();
      await expect(openSlide(uploadFiles(f.file), { scene: 1 })).rejects.toMatchObject({
        code: 'bad_request',
        message: 'Scene 1 does not exist: the slide has 1 scene',
      });
    });
  }
});
