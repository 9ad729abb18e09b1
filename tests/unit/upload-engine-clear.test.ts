// Clearing rows from the uploader (UploadEngine.clear): a failed row goes, with its stored record; a
// row still under way stays, whatever the page asked.
import crypto from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import Dexie from 'dexie';
import { putRecord, type UploadRecord } from '../../src/local/uploads';
import { UploadsDb } from '../../src/local/uploads-db';
import { UploadEngine } from '../../src/workers/upload-engine';

let engine: UploadEngine | undefined;
afterEach(() => engine?.stop());

const record = (userId: string, status: UploadRecord['status']): UploadRecord => ({
  id: crypto.randomUUID(),
  userId,
  name: `${status}.czi`,
  size: 10,
  transferred: 10,
  progress: 1,
  status,
  error: null,
  scanGroupId: null,
  imageId: null,
  labelUrl: null,
  parts: [
    {
      relativePath: 'a.czi',
      name: 'a.czi',
      size: 10,
      lastModified: 0,
      fingerprint: '',
      offset: 10,
      done: true,
      kept: 'none',
    },
  ],
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
});

it('clears ended rows and keeps rows under way', async () => {
  Dexie.dependencies.indexedDB = new IDBFactory();
  const db = new UploadsDb(`test-${crypto.randomUUID()}`);
  const refused = 'notes.txt'; // refused before a byte is sent: a read_error row
  const processing = record('u1', 'waiting_for_processing');
  const done = record('u1', 'done');
  await putRecord(processing, db);
  await putRecord(done, db);
  engine = new UploadEngine(
    { onChange: () => undefined, onEvent: () => undefined, refreshSession: async () => false },
    { keepFiles: false, origin: 'http://127.0.0.1:9' },
    db,
  );
  await engine.start('u1');
  const [id] = await engine.add([{ file: new File(['not a slide'], refused), relativePath: refused }]);
  const cleared = await engine.clear([id, processing.id, done.id]);
  expect(cleared.sort()).toEqual([id, done.id].sort());
  expect((await db.records.toArray()).map((r) => r.id)).toEqual([processing.id]);
});
