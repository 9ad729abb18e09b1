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
import { ABORTED, TOO_LARGE } from '../../src/server/uploads/chunk-writer';
import {
  CHECKSUM_MISMATCH,
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
    expect(await store.writeChunk(Readable.from([first]), id, 0, { checksum: sha1(first) })).toBe(1000);
    const second = bytes.subarray(1000);
    await expect(
      store.writeChunk(Readable.from([second]), id, 1000, { checksum: sha1(Buffer.from('nope')) }),
    ).rejects.toBe(CHECKSUM_MISMATCH);
    expect((await store.getUpload(id)).offset).toBe(1000);
    expect(await store.writeChunk(Readable.from([second]), id, 1000, { checksum: sha1(second) })).toBe(2000);
    expect(store.extensions).toContain('checksum');
  });
});

describe('a chunk on the local disk', () => {
  /** A body in pieces of a few KiB, as browsers send it, across several of the writer's blocks. */
  const pieces = (bytes: Buffer, size = 16 * 1024 + 7) => {
    const out: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
    return out;
  };
  const newUpload = async (store: UploadStore, size: number) => {
    const id = crypto.randomBytes(16).toString('hex');
    await store.create(new Upload({ id, size, offset: 0 }));
    return id;
  };

  it('writes a body of many pieces exactly, at its offset', async () => {
    const { storage, store } = setup();
    const bytes = crypto.randomBytes(11 * 1024 * 1024 + 123);
    const id = await newUpload(store, bytes.length);
    const head = bytes.subarray(0, 5000);
    expect(await store.writeChunk(Readable.from([head]), id, 0, { checksum: sha1(head) })).toBe(5000);
    const rest = bytes.subarray(5000);
    expect(await store.writeChunk(Readable.from(pieces(rest)), id, 5000, { checksum: sha1(rest) })).toBe(
      bytes.length,
    );
    expect(sha1(fs.readFileSync(storage.uploadFile(id)))).toBe(sha1(bytes));
  });

  it('keeps the old offset when the body is too long, cut short, or stopped for another request', async () => {
    const { store } = setup();
    const bytes = crypto.randomBytes(9 * 1024 * 1024);
    const id = await newUpload(store, bytes.length);
    await expect(
      store.writeChunk(Readable.from(pieces(bytes)), id, 0, { limit: bytes.length - 1 }),
    ).rejects.toBe(TOO_LARGE);
    expect((await store.getUpload(id)).offset).toBe(0);

    const cut = new Readable({ read() {} });
    const writing = store.writeChunk(cut, id, 0, { checksum: sha1(bytes) });
    cut.push(bytes.subarray(0, 5 * 1024 * 1024));
    setTimeout(() => cut.destroy(new Error('aborted')), 20);
    await expect(writing).rejects.toThrow('aborted');
    expect((await store.getUpload(id)).offset).toBe(0);

    const stop = new AbortController();
    const slow = new Readable({ read() {} });
    const stopped = store.writeChunk(slow, id, 0, { checksum: sha1(bytes), signal: stop.signal });
    slow.push(bytes.subarray(0, 6 * 1024 * 1024));
    setTimeout(() => stop.abort(), 20);
    await expect(stopped).rejects.toBe(ABORTED);
    expect((await store.getUpload(id)).offset).toBe(0);

    expect(await store.writeChunk(Readable.from(pieces(bytes)), id, 0, { checksum: sha1(bytes) })).toBe(
      bytes.length,
    );
  });
});

describe('upload store', () => {
  it('answers 507 when the disk is full, before writing', async () => {
    const { store } = setup('inline', 10 * 1024 * 1024);
    const id = crypto.randomBytes(16).toString('hex');
    await store.create(new Upload({ id, size: 100, offset: 0 }));
    await expect(
      store.writeChunk(Readable.from([Buffer.alloc(100)]), id, 0, { contentLength: 100 }),
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
