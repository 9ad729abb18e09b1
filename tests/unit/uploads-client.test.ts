// The client's pure and local parts: which uploads a drop makes (.mrxs folders as one group), the
// upload records read back from IndexedDB (repaired), fingerprints, the IndexedDB copy of a file
// where OPFS is missing, and the checksum the worker puts on each chunk.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import Dexie from 'dexie';
import { UploadText } from '../../src/api/messages';
import { UploadOwnText } from '../../src/api/uploads';
import {
  dropKept,
  fingerprintFile,
  keepFile,
  listRecords,
  putRecord,
  readKept,
  repairRecord,
  updateRecord,
  type UploadRecord,
} from '../../src/local/uploads';
import { UploadsDb } from '../../src/local/uploads-db';
import { sha1Base64 } from '../../src/workers/checksum-stack';
import { partPath, planUploads } from '../../src/workers/plan';

const entry = (relativePath: string, size = 10) => ({
  name: relativePath.split('/').pop()!,
  size,
  relativePath,
});

describe('planUploads', () => {
  it('makes one upload per .czi/.qptiff and one multi-file upload per .mrxs with its data folder', () => {
    const plans = planUploads([
      entry('Run/a.czi'),
      entry('Run/b.qptiff'),
      entry('Run/slide.mrxs'),
      entry('Run/slide/Slidedat.ini'),
      entry('Run/slide/Index.dat'),
      entry('Run/slide/Data0000.dat'),
      entry('Run/other.mrxs'),
      entry('Run/other/Slidedat.ini'),
      entry('Run/other/Data0000.dat'),
    ]);
    expect(plans.map((p) => [p.name, p.parts.length, p.refused])).toEqual([
      ['slide.mrxs', 4, undefined],
      ['other.mrxs', 3, undefined],
      ['a.czi', 1, undefined],
      ['b.qptiff', 1, undefined],
    ]);
    const mrxs = plans[0];
    expect(mrxs.parts.map((p) => partPath(mrxs, p))).toEqual([
      'slide.mrxs',
      'slide/Slidedat.ini',
      'slide/Index.dat',
      'slide/Data0000.dat',
    ]);
    expect(partPath(plans[2], plans[2].parts[0])).toBe('a.czi');
  });

  it('refuses other files and an .mrxs without its data folder before anything is sent', () => {
    const plans = planUploads([entry('notes.txt'), entry('lonely.mrxs'), entry('x/Data0001.dat')]);
    expect(plans.map((p) => [p.name, p.refused])).toEqual([
      ['lonely.mrxs', UploadOwnText.mrxsNeedsFolder],
      ['notes.txt', UploadText.incompatibleFormat],
      ['Data0001.dat', UploadText.incompatibleFormat],
    ]);
  });
});

describe('upload records in IndexedDB', () => {
  const fresh = () => {
    Dexie.dependencies.indexedDB = new IDBFactory();
    return new UploadsDb(`test-${crypto.randomUUID()}`);
  };
  const record = (over: Partial<UploadRecord> = {}): UploadRecord => ({
    id: crypto.randomUUID(),
    userId: 'u1',
    name: 'a.czi',
    size: 100,
    transferred: 40,
    progress: 0.4,
    status: 'waiting_for_upload',
    error: null,
    scanGroupId: null,
    imageId: null,
    labelUrl: null,
    parts: [
      {
        relativePath: 'a.czi',
        name: 'a.czi',
        size: 100,
        lastModified: 1,
        fingerprint: 'f',
        offset: 40,
        done: false,
        kept: 'idb',
      },
    ],
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    ...over,
  });

  it('repairs what it reads back and drops what cannot be used', () => {
    expect(repairRecord(null)).toBeUndefined();
    expect(repairRecord({ id: 'x', userId: 'u', parts: [] })).toBeUndefined();
    const damaged = repairRecord({
      ...record(),
      status: 'nonsense',
      transferred: 1e12,
      parts: [{ ...record().parts[0], offset: -5, kept: 'cloud' }],
    });
    expect(damaged).toMatchObject({ status: 'upload_error', transferred: 100, progress: 1 });
    expect(damaged!.parts[0]).toMatchObject({ offset: 0, kept: 'none' });
  });

  it('stores, updates and lists a user’s records newest first', async () => {
    const db = fresh();
    const older = record({ createdAt: '2024-01-01T00:00:00.000Z' });
    const newer = record({ createdAt: '2024-02-01T00:00:00.000Z' });
    await putRecord(older, db);
    await putRecord(newer, db);
    await putRecord(record({ userId: 'someone else' }), db);
    expect((await listRecords('u1', db)).map((r) => r.id)).toEqual([newer.id, older.id]);
    const updated = await updateRecord(older.id, () => ({ status: 'aborted' }), db);
    expect(updated?.status).toBe('aborted');
    expect(updated!.updatedAt > older.updatedAt).toBe(true);
  });

  it('keeps a copy as an IndexedDB blob where OPFS is missing, reads it back whole, drops it', async () => {
    const db = fresh();
    const bytes = crypto.randomBytes(5000);
    const blob = new Blob([bytes]);
    expect(await keepFile('r1', 'a.czi', blob, db)).toBe('idb');
    const back = await readKept('r1', { relativePath: 'a.czi', size: 5000, kept: 'idb' }, db);
    expect(Buffer.from(await back!.arrayBuffer()).equals(bytes)).toBe(true);
    // A copy of another length is not trusted.
    expect(await readKept('r1', { relativePath: 'a.czi', size: 4999, kept: 'idb' }, db)).toBeUndefined();
    await dropKept('r1', db);
    expect(await readKept('r1', { relativePath: 'a.czi', size: 5000, kept: 'idb' }, db)).toBeUndefined();
  });
});

describe('fingerprints and checksums', () => {
  const file = (bytes: Buffer, name = 'a.czi', lastModified = 1) =>
    new File([new Uint8Array(bytes)], name, { lastModified });

  it('tells the same file from another of the same name and size', async () => {
    const a = crypto.randomBytes(3 * 1024 * 1024);
    const b = Buffer.from(a);
    b[b.length - 10] ^= 0xff;
    expect(await fingerprintFile(file(a))).toBe(await fingerprintFile(file(Buffer.from(a))));
    expect(await fingerprintFile(file(a))).not.toBe(await fingerprintFile(file(b)));
    expect(await fingerprintFile(file(a))).not.toBe(await fingerprintFile(file(a, 'b.czi')));
  });

  it('puts the chunk’s SHA-1 in base64, as the server checks it', async () => {
    const chunk = crypto.randomBytes(70_000);
    expect(await sha1Base64(new Blob([chunk]))).toBe(
      crypto.createHash('sha1').update(chunk).digest('base64'),
    );
  });
});
