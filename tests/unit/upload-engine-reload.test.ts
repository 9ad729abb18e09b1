// The engine lists the stored records when it starts (and every 10 s, to take over records of closed
// tabs). A file added while such a listing runs is not in it: the row must stay, not vanish.
import crypto from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import Dexie from 'dexie';
import { UploadText } from '../../src/api/messages';
import { UploadsDb } from '../../src/local/uploads-db';
import { UploadEngine, type UploadView } from '../../src/workers/upload-engine';

let engine: UploadEngine | undefined;
afterEach(() => engine?.stop());

it('keeps a record added while the start-up listing is still running', async () => {
  Dexie.dependencies.indexedDB = new IDBFactory();
  const db = new UploadsDb(`test-${crypto.randomUUID()}`);
  let views: UploadView[] = [];
  engine = new UploadEngine(
    { onChange: (v) => (views = v), onEvent: () => undefined, refreshSession: async () => false },
    { keepFiles: false, origin: 'http://127.0.0.1:9' },
    db,
  );
  const started = engine.start('u1');
  // A refused file makes a record without sending anything (no lock, nothing on the wire).
  const [id] = await engine.add([
    { file: new File(['not a slide'], 'notes.txt'), relativePath: 'notes.txt' },
  ]);
  await started;
  await new Promise((r) => setTimeout(r, 400)); // the engine emits at most a few times a second
  const row = views.find((v) => v.id === id);
  expect(row?.status).toBe('read_error');
  expect(row?.error).toBe(UploadText.incompatibleFormat);
});
