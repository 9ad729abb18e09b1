// Broken files as small edits of a known fixture, each with its exact error (openslide test/cases style).
// Every error is a SlideError whose status is read_error (spec §4.3); the message is what the user reads.

import {
  chmodSync,
  cpSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { SlideError } from '../../../src/server/slides/errors';
import { openSlide } from '../../../src/server/slides/registry';
import { FIXTURES } from './fixtures';
import { tempDir } from './gen/slides';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Copies a fixture file or folder into the temp dir, made writable (the shared fixtures are read-only). */
function copyFixture(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const writable = (p: string) => {
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
    if (statSync(p).isDirectory()) for (const n of readdirSync(p)) writable(join(p, n));
  };
  writable(to);
}

/** Writes `name` as the fixture `from` with `edit` applied to a copy of its bytes. */
function edited(from: string, name: string, edit: (b: Buffer) => Buffer | void): string {
  const b = Buffer.from(readFileSync(join(FIXTURES, from)));
  const out = edit(b) ?? b;
  const path = join(dir, name);
  writeFileSync(path, out);
  return path;
}

const le32 = (b: Buffer, at: number, v: number): void => void b.writeInt32LE(v, at);
/** newCZI_compressed.czi: its one directory entry starts 32 + 128 bytes into the directory segment. */
const CZI_DIR = 282208 + 32 + 128;

async function failure(files: string[], read = false): Promise<SlideError> {
  try {
    const s = await openSlide(files);
    if (read) {
      await s.readRegion(0, 0, 0, s.levels[0].width, s.levels[0].height);
      for (const n of s.associatedNames) await s.associated(n);
    }
    await s.close();
  } catch (e) {
    expect(e).toBeInstanceOf(SlideError);
    expect((e as SlideError).status).toBe('read_error');
    return e as SlideError;
  }
  throw new Error('expected the slide to fail');
}

const CASES: { name: string; make: () => string[] | Promise<string[]>; message: string; read?: boolean }[] = [
  {
    name: 'CZI with its magic overwritten',
    make: () => [edited('czi/RGB-8bit.czi', 'magic.czi', (b) => void b.write('XXXXXX', 0))],
    message: 'Not a CZI file: bad ZISRAWFILE magic',
  },
  {
    name: 'CZI cut after the header',
    make: () => [edited('czi/RGB-8bit.czi', 'cut.czi', (b) => b.subarray(0, 1000))],
    message: 'Truncated CZI file: segment ZISRAWMETADATA at byte 1120 runs past the end of the file',
  },
  {
    name: 'CZI whose directory segment id is damaged',
    make: () => [edited('czi/RGB-8bit.czi', 'dir.czi', (b) => void b.write('ZISRAWDIRECTORX', 544))],
    message: 'Corrupt CZI file: expected segment ZISRAWDIRECTORY at byte 544',
  },
  {
    name: 'CZI with an unknown compression (LZW, 2)',
    make: () => [edited('czi/newCZI_compressed.czi', 'lzw.czi', (b) => le32(b, CZI_DIR + 18, 2))],
    message: 'Unsupported CZI compression 2',
  },
  {
    name: 'CZI with a float pixel type (Gray32Float, 2)',
    make: () => [edited('czi/newCZI_compressed.czi', 'float.czi', (b) => le32(b, CZI_DIR + 2, 2))],
    message: 'Unsupported CZI pixel type 2',
  },
  {
    name: 'CZI whose zstd data is damaged',
    make: () => [edited('czi/newCZI_compressed.czi', 'zstd.czi', (b) => void b.fill(0x55, 2000, 2100))],
    message: 'Corrupt CZI subblock at byte 544: ',
    read: true,
  },
  {
    name: 'MRXS without its data file',
    make: () => {
      copyFixture(join(FIXTURES, 'mrxs'), join(dir, 'nodata'));
      unlinkSync(join(dir, 'nodata/slide/Data0000.dat'));
      return [
        join(dir, 'nodata/slide.mrxs'),
        join(dir, 'nodata/slide/Slidedat.ini'),
        join(dir, 'nodata/slide/Index.dat'),
      ];
    },
    message: 'MRXS slide is missing data file Data0000.dat',
  },
  {
    name: 'MRXS without Slidedat.ini',
    make: () =>
      [join(FIXTURES, 'mrxs/slide.mrxs'), join(FIXTURES, 'mrxs/slide/Index.dat')].map((p) => {
        const to = join(dir, 'noini', p.endsWith('.mrxs') ? 'slide.mrxs' : 'other/Index.dat');
        copyFixture(p, to);
        return to;
      }),
    message: 'MRXS slide is missing Slidedat.ini',
  },
  {
    name: 'MRXS whose Index.dat has a bad version',
    make: () => {
      copyFixture(join(FIXTURES, 'mrxs'), join(dir, 'badindex'));
      const p = join(dir, 'badindex/slide/Index.dat');
      const b = readFileSync(p);
      b.write('99.99', 0);
      writeFileSync(p, b);
      return [join(dir, 'badindex/slide.mrxs')];
    },
    message: 'Not an MRXS index: bad Index.dat header',
  },
  {
    name: 'MRXS whose Slidedat.ini lacks IMAGENUMBER_X',
    make: () => {
      copyFixture(join(FIXTURES, 'mrxs'), join(dir, 'badini'));
      const p = join(dir, 'badini/slide/Slidedat.ini');
      writeFileSync(p, readFileSync(p, 'utf8').replace(/IMAGENUMBER_X = 4\r?\n/, ''));
      return [join(dir, 'badini/slide.mrxs')];
    },
    message: 'Corrupt MRXS Slidedat.ini: missing IMAGENUMBER_X in [GENERAL]',
  },
  {
    name: 'QPTIFF cut in half',
    make: () => [edited('qptiff/fluor-4ch.qptiff', 'half.qptiff', (b) => b.subarray(0, b.length >> 1))],
    message: 'Truncated QPTIFF file: page 2 runs past the end of the file',
  },
  {
    name: 'QPTIFF that is not a TIFF',
    make: () => [edited('labels/FIXTURE-QP-0001.png', 'png.qptiff', () => undefined)],
    message: 'Not a QPTIFF file: bad TIFF header',
  },
  {
    name: 'plain TIFF named .qptiff',
    make: async () => {
      const p = join(dir, 'plain.qptiff');
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
        .tiff()
        .toFile(p);
      return [p];
    },
    message: 'Not a QPTIFF file: no PerkinElmer-QPI image description',
  },
  {
    name: 'QPTIFF whose pages are all relabelled (no FullResolution)',
    make: () => [
      edited('qptiff/brightfield.qptiff', 'nofull.qptiff', (b) => {
        for (let at = b.indexOf('FullResolution'); at >= 0; at = b.indexOf('FullResolution', at + 1))
          b.write('FullResolutioX', at);
      }),
    ],
    message: 'QPTIFF file has no FullResolution page',
  },
];

describe('broken files end in their exact error', () => {
  for (const c of CASES)
    it(c.name, async () => {
      const e = await failure(await c.make(), c.read);
      if (c.message.endsWith(': ')) expect(e.message.startsWith(c.message)).toBe(true);
      else expect(e.message).toBe(c.message);
    });

  it('a QPTIFF with no label page opens, with no label (the job then asks for one)', async () => {
    const path = edited('qptiff/fluor-4ch.qptiff', 'nolabel.qptiff', (b) => {
      const at = b.indexOf('<ImageType>Label</ImageType>');
      b.write('<ImageType>Lxbel</ImageType>', at);
    });
    const s = await openSlide([path]);
    expect(s.associatedNames).not.toContain('label');
    expect(await s.associated('label')).toBeUndefined();
    await s.close();
  });
});
