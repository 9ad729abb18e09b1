// The server's upload store: a chunk is verified by its SHA-1 both ways (written then cut back on the
// local disk, spooled first for object stores), a full disk answers 507 before a byte is written, and
// the storage moves finished uploads into place idempotently.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Upload } from '@tus/utils';
import { LocalStorage } from '../../src/server/storage/local';
import {
  CHECKSUM_MISMATCH,
  chunkContext,
  parseChecksumHeader,
  STORAGE_FULL,
  UploadStore,
} from '../../src/server/uploads/store';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function setup(mode: 'inline' | 'spool' = 'inline', free?: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-store-'));
  dirs.push(dir);
  const storage = new LocalStorage(path.join(dir, 'files'), 0);
  Object.defineProperty(storage, 'checksumMode', { value: mode });
  if (free !== undefined) storage.freeBytes = async () => free;
  return { storage, store: new UploadStore(storage, dir), dir };
}
const sha1 = (b: Buffer) => crypto.createHash('sha1').update(b).digest('base64');

describe.each(['inline', 'spool'] as const)('checksums (%s)', (mode) => {
  it('takes a chunk whose SHA-1 matches and refuses one that does not, keeping the offset', async () => {
    const { store } = setup(mode);
    const id = crypto.randomBytes(16).toString('hex');
    await store.create(new Upload({ id, size: 2000, offset: 0 }));
    const bytes = crypto.randomBytes(2000);
    const first = bytes.subarray(0, 1000);
    expect(
      await chunkContext.run({ checksum: sha1(first) }, () => store.write(Readable.from([first]), id, 0)),
    ).toBe(1000);
    const second = bytes.subarray(1000);
    await expect(
      chunkContext.run({ checksum: sha1(Buffer.from('nope')) }, () =>
        store.write(Readable.from([second]), id, 1000),
      ),
    ).rejects.toBe(CHECKSUM_MISMATCH);
    expect((await store.getUpload(id)).offset).toBe(1000);
    expect(
      await chunkContext.run({ checksum: sha1(second) }, () =>
        store.write(Readable.from([second]), id, 1000),
      ),
    ).toBe(2000);
    expect(store.extensions).toContain('checksum');
  });
});

describe('upload store', () => {
  it('answers 507 when the disk is full, before writing', async () => {
    const { store } = setup('inline', 10 * 1024 * 1024);
    const id = crypto.randomBytes(16).toString('hex');
    await store.create(new Upload({ id, size: 100, offset: 0 }));
    await expect(
      chunkContext.run({ contentLength: 100 }, () => store.write(Readable.from([Buffer.alloc(100)]), id, 0)),
    ).rejects.toBe(STORAGE_FULL);
    expect((await store.getUpload(id)).offset).toBe(0);
  });

  it('moves a finished upload into place, and a second try after a crash is harmless', async () => {
    const { storage, store } = setup();
    const id = crypto.randomBytes(16).toString('hex');
    await store.create(new Upload({ id, size: 3, offset: 0 }));
    await store.write(Readable.from([Buffer.from('abc')]), id, 0);
    await storage.adoptUpload(id, 'images/i1/a.czi');
    await storage.adoptUpload(id, 'images/i1/a.czi');
    expect(await storage.size('images/i1/a.czi')).toBe(3);
    expect(await storage.list('images/')).toEqual(['images/i1/a.czi']);
    expect(await storage.list('uploads/')).toEqual([]);
    await storage.delete('images/i1/');
    expect(await storage.exists('images/i1/a.czi')).toBe(false);
    expect(() => storage.pathOf('../etc/passwd')).toThrow();
  });

  it('reads Upload-Checksum headers', () => {
    expect(parseChecksumHeader(undefined)).toBeUndefined();
    expect(parseChecksumHeader(`sha1 ${sha1(Buffer.from('x'))}`)).toBe(sha1(Buffer.from('x')));
    expect(() => parseChecksumHeader('md5 AAAA')).toThrow('Unsupported checksum algorithm: md5');
    expect(() => parseChecksumHeader('sha1')).toThrow();
    expect(() => parseChecksumHeader('sha1 AAAA')).toThrow('not a SHA-1 digest');
  });
});
