// A generated 3-scene CZI, like a Zeiss Axioscan slide with three tissue sections: scenes of 295×122,
// 64×64 and 352×237 pixels (the sizes of a real 3-scene file) at far-apart stage positions, the third a
// mosaic of two tiles with a ×2 pyramid subblock, uncompressed Bgr24 so every pixel is exact, and
// optionally a Label attachment (a DataMatrix) so the processing job links all three to one slide.
// Used by the reader's unit test and the upload API test.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cziXml, writeCzi, type AttachmentSpec, type SubblockSpec } from './czi-writer';
import { COMP, labelPicture, PT } from './slides';

export interface SceneFact {
  /** Stage position (subblock X/Y) of the scene's top left. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export const THREE_SCENES: readonly SceneFact[] = [
  { x: 10_000, y: 20_000, width: 295, height: 122 },
  { x: -4_000, y: 31_000, width: 64, height: 64 },
  { x: 52_000, y: 19_500, width: 352, height: 237 },
];

/** The RGB colour of pixel (x, y) of scene `s`: red and green follow the position, blue the scene. */
export const scenePixel = (s: number, x: number, y: number): [number, number, number] => [
  x % 256,
  y % 256,
  60 * (s + 1),
];

/** Bgr24 bytes of the w×h part of scene `s` whose top left is the scene's pixel (x0, y0). */
function sceneBgr(s: number, x0: number, y0: number, w: number, h: number, step = 1): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const [r, g, b] = scenePixel(s, x0 + x * step, y0 + y * step);
      out.set([b, g, r], (y * w + x) * 3);
    }
  return out;
}

const block = (s: number, x0: number, y0: number, w: number, h: number, m?: number): SubblockSpec => ({
  x: THREE_SCENES[s].x + x0,
  y: THREE_SCENES[s].y + y0,
  w,
  h,
  s,
  m,
  pixelType: PT.Bgr24,
  compression: COMP.None,
  data: sceneBgr(s, x0, y0, w, h),
});

/** Writes `three-scenes.czi` (or `name`) into `dir`; `label` adds a Label attachment holding that text. */
export async function threeSceneCzi(dir: string, label?: string, name = 'three-scenes.czi'): Promise<string> {
  const [, , third] = THREE_SCENES;
  const subblocks: SubblockSpec[] = [
    block(0, 0, 0, 295, 122),
    block(1, 0, 0, 64, 64),
    block(2, 0, 0, 200, 237, 0),
    block(2, 200, 0, 152, 237, 1),
    {
      // The file's own ×2 pyramid of scene 2: one subblock of half the pixels over the whole scene.
      x: third.x,
      y: third.y,
      w: third.width,
      h: third.height,
      storedW: third.width / 2,
      storedH: Math.ceil(third.height / 2),
      s: 2,
      pixelType: PT.Bgr24,
      compression: COMP.None,
      data: sceneBgr(2, 0, 0, third.width / 2, Math.ceil(third.height / 2), 2),
    },
  ];
  const attachments: AttachmentSpec[] = [];
  if (label) {
    const pic = await labelPicture(label);
    const bgr = pic.rgb.slice();
    for (let i = 0; i < bgr.length; i += 3) [bgr[i], bgr[i + 2]] = [pic.rgb[i + 2], pic.rgb[i]];
    const inner = writeCzi(
      [{ x: 0, y: 0, w: pic.width, h: pic.height, pixelType: PT.Bgr24, compression: COMP.None, data: bgr }],
      cziXml(),
    );
    attachments.push({ name: 'Label', type: 'CZI', data: inner });
  }
  const path = join(dir, name);
  writeFileSync(path, writeCzi(subblocks, cziXml({ pixelUm: 0.22 }), attachments));
  return path;
}
