// Processing reads originals from the bucket by range (S3_* set, against s3rver): each fixture format
// processes to completed with nothing of the original under DATA_DIR, the readers see the same pixels
// through the bucket as from the disk, and reading one small region fetches a fraction of the file.
// Prints the figure: bytes fetched against the file's size for the thumbnail-level region.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { S3 } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, organizations } from '../../src/server/db/schema';
import { enqueue } from '../../src/server/jobs/queue';
import { PROCESS_IMAGE } from '../../src/server/jobs/kinds';
import { openSlide } from '../../src/server/slides/registry';
import type { RawImage, Slide } from '../../src/server/slides/types';
import { createStorage, forgetStorage, type FileStorage } from '../../src/server/storage';
import { dbTargets, startApp, type TestApp } from './helpers';
import { startS3, type TestS3 } from './s3-server';
import { bigMosaicCzi, tempDir } from '../unit/slides/gen/slides';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const KiB = 1024;
const [target] = await dbTargets();

interface Case {
  name: string;
  /** Fixture paths relative to FIXTURES; the first is the main file, the rest its data folder. */
  files: string[];
}

const mrxsFolder = fs.readdirSync(path.join(FIXTURES, 'mrxs/slide')).map((n) => `mrxs/slide/${n}`);
const CASES: Case[] = [
  { name: 'CZI', files: ['czi/1_tileregion.czi'] },
  { name: 'fluorescence QPTIFF', files: ['qptiff/fluor-4ch.qptiff'] },
  { name: 'MIRAX folder', files: ['mrxs/slide.mrxs', ...mrxsFolder] },
];

/** Storage key of a fixture file inside an image's folder: the part after the format's folder. */
const keyOf = (imageId: string, file: string) => `images/${imageId}/${file.split('/').slice(1).join('/')}`;

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** The smallest level and a corner of level 0, every channel, then every associated image. */
async function somePixels(slide: Slide): Promise<RawImage[]> {
  const out: RawImage[] = [];
  const last = slide.levels.length - 1;
  for (let c = 0; c < slide.channels.length; c++) {
    const { width, height } = slide.levels[last];
    out.push(await slide.readRegion(last, 0, 0, width, height, c));
    out.push(await slide.readRegion(0, 100, 100, 300, 200, c));
  }
  for (const name of slide.associatedNames) out.push((await slide.associated(name))!);
  return out;
}

describe(`processing from S3 by ranged reads on ${target.name}`, () => {
  let s3: TestS3;
  let t: TestApp;
  let orgId: string;
  let client: S3;
  const savedEnv = { ...process.env };
  const figure: string[] = [];

  beforeAll(async () => {
    s3 = await startS3();
    Object.assign(process.env, s3.env);
    t = await startApp(target);
    [{ id: orgId }] = await t.app.ctx.db.select({ id: organizations.id }).from(organizations);
    client = new S3({
      endpoint: s3.env.S3_ENDPOINT,
      region: s3.env.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY },
    });
  });
  afterAll(async () => {
    if (figure.length)
      console.log(`bytes fetched for the thumbnail-level region (64 KiB blocks):\n${figure.join('\n')}`);
    client?.destroy();
    await t?.close();
    if (t) forgetStorage(t.dataDir);
    process.env = savedEnv;
    await s3?.close();
  });

  async function putFixture(imageId: string, c: Case): Promise<Map<string, Buffer>> {
    const originals = new Map<string, Buffer>();
    for (const file of c.files) {
      const bytes = fs.readFileSync(path.join(FIXTURES, file));
      const Key = keyOf(imageId, file);
      await client.putObject({ Bucket: s3.bucket, Key, Body: bytes });
      originals.set(Key, bytes);
    }
    return originals;
  }

  for (const c of CASES) {
    it(`processes the ${c.name} from the bucket with no local copy, the disk's pixels, a fraction fetched`, async () => {
      const imageId = crypto.randomUUID();
      const originals = await putFixture(imageId, c);
      const mainKey = keyOf(imageId, c.files[0]);

      // The job, watched: no file of the original's name appears under DATA_DIR while it runs.
      const created: string[] = [];
      const watcher = fs.watch(t.dataDir, { recursive: true }, (_event, name) => {
        if (name) created.push(String(name));
      });
      try {
        await t.app.ctx.db.insert(images).values({
          id: imageId,
          name: path.basename(mainKey),
          organizationId: orgId,
          storageKey: mainKey,
        });
        await enqueue(t.app.ctx.db, PROCESS_IMAGE, { imageId });
        await t.app.ctx.jobs.drain();
      } finally {
        watcher.close();
      }
      const [row] = await t.app.ctx.db.select().from(images).where(eq(images.id, imageId));
      expect(row.status, JSON.stringify(row.info)).toBe('completed');
      expect(fs.existsSync(path.join(t.dataDir, 'tiles', imageId))).toBe(false);
      const pack = await client.headObject({ Bucket: s3.bucket, Key: `derived/${imageId}/pyramid.pack` });
      expect(pack.ContentLength).toBeGreaterThan(0);
      expect(created.some((n) => n.split(path.sep)[0] === 'work')).toBe(true); // the watch sees writes
      const names = new Set([...originals.keys()].map((k) => path.posix.basename(k)));
      expect(created.filter((n) => names.has(path.basename(n)) || n.split(path.sep)[0] === 'tmp')).toEqual(
        [],
      );
      expect(fs.existsSync(path.join(t.dataDir, 'tmp'))).toBe(false);
      const digests = new Set([...originals.values()].map(sha256));
      for (const f of filesUnder(t.dataDir)) expect(digests.has(sha256(fs.readFileSync(f))), f).toBe(false);

      // The same pixels through the bucket as from the disk.
      const storage: FileStorage = createStorage({
        dataDir: t.dataDir,
        env: s3.env,
        expiryMs: 0,
        ranged: { blockBytes: 64 * KiB, cacheBytes: 4096 * KiB },
      });
      const keys = [...originals.keys()];
      const openFile = (key: string) => storage.openSource(key);
      const fromDisk = await openSlide(c.files.map((f) => path.join(FIXTURES, f)));
      const fromBucket = await openSlide(keys, { openFile });
      try {
        const [a, b] = [await somePixels(fromDisk), await somePixels(fromBucket)];
        expect(b.length).toBe(a.length);
        a.forEach((img, i) => {
          expect([b[i].width, b[i].height, b[i].channels, b[i].bits]).toEqual([
            img.width,
            img.height,
            img.channels,
            img.bits,
          ]);
          expect(sha256(new Uint8Array(b[i].data.buffer, b[i].data.byteOffset, b[i].data.byteLength))).toBe(
            sha256(new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength)),
          );
        });
      } finally {
        await fromDisk.close();
        await fromBucket.close();
      }

      // Opening the slide and reading its smallest level, as the thumbnail does: the bytes fetched.
      s3.resetServed();
      const slide = await openSlide(keys, { openFile });
      try {
        const level = slide.levels.length - 1;
        const { width, height } = slide.levels[level];
        for (let ch = 0; ch < slide.channels.length; ch++)
          await slide.readRegion(level, 0, 0, width, height, ch);
      } finally {
        await slide.close();
      }
      const size = [...originals.values()].reduce((n, b) => n + b.length, 0);
      const fetched = keys.reduce((n, k) => n + s3.bytesServed(k), 0);
      figure.push(
        `  ${c.files[0].padEnd(28)} ${String(Math.round(fetched / KiB)).padStart(5)} KiB of ${String(Math.round(size / KiB)).padStart(5)} KiB (${((100 * fetched) / size).toFixed(0)}%)`,
      );
      // Small fixtures: their directories and pages spread over the few blocks they have. Never a copy.
      expect(fetched).toBeGreaterThan(0);
      expect(fetched).toBeLessThan(size);
    });
  }

  it('reads one level-0 region of a big CZI with a small part of the file fetched', async () => {
    const dir = tempDir();
    try {
      const file = await bigMosaicCzi(dir, 8192, 6144, 512);
      const bytes = fs.readFileSync(file);
      const key = `images/${crypto.randomUUID()}/big.czi`;
      await client.putObject({ Bucket: s3.bucket, Key: key, Body: bytes });
      const storage = createStorage({
        dataDir: t.dataDir,
        env: s3.env,
        expiryMs: 0,
        // Blocks in proportion to this 1.3 MB file, as 2 MiB blocks are to a multi-gigabyte slide.
        ranged: { blockBytes: 16 * KiB, cacheBytes: 1024 * KiB },
      });
      const disk = await openSlide([file]);
      s3.resetServed();
      const slide = await openSlide([key], { openFile: (k) => storage.openSource(k) });
      try {
        const region = await slide.readRegion(0, 3000, 2000, 256, 256);
        expect(sha256(region.data as Uint8Array)).toBe(
          sha256((await disk.readRegion(0, 3000, 2000, 256, 256)).data as Uint8Array),
        );
      } finally {
        await slide.close();
        await disk.close();
      }
      const fetched = s3.bytesServed(key);
      figure.push(
        `  big.czi (16 KiB blocks), a 256×256 level-0 region ${String(Math.round(fetched / KiB)).padStart(5)} KiB of ${String(Math.round(bytes.length / KiB)).padStart(5)} KiB (${((100 * fetched) / bytes.length).toFixed(1)}%)`,
      );
      expect(fetched).toBeLessThan(bytes.length / 10);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
