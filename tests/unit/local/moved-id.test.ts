// A page may still hold a row's temporary id for a moment after the replay gave the row its server id
// (the list re-renders a little later). A change made through that stale id must reach the row under
// its server id — not be sent for an id the server never knew (it would fail, and the change be lost).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Study } from '../../../src/api/entities';
import { processLock } from '../../../src/local/locks';
import { createEntity, deleteEntity, updateEntity } from '../../../src/local/outbox';
import { replayOutbox } from '../../../src/local/replay';
import { freshDb, startServer, type Server } from './harness';

describe('changes through a temporary id that has just been replaced', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  it('go to the server id: a rename, then a delete, both reach the server', async () => {
    const db = freshDb();
    const transport = await s.transportFor();
    const name = `moved ${Date.now()}`;
    const { id: temporary } = await createEntity(
      db,
      'studies',
      { name },
      { preview: { tags: [], scanGroupIds: [] } },
    );
    expect(await replayOutbox(db, { transport, lock: processLock })).toMatchObject({ sent: 1 });
    const [server] = (await s.call<{ result: Study[] }>('GET', `/studies?name=${encodeURIComponent(name)}`))
      .body.result;
    expect(server.id).not.toBe(temporary);

    const rename = await updateEntity(db, 'studies', temporary, { set: { name: `${name} renamed` } });
    expect(rename.path).toBe(`/studies/${server.id}`);
    expect(rename.target).toBe(`studies:${server.id}`);
    expect(await db.studies.get(server.id)).toMatchObject({ name: `${name} renamed`, $pending: 1 });
    const removal = await deleteEntity(db, 'studies', temporary);
    expect(removal.path).toBe(`/studies/${server.id}`);

    expect(await replayOutbox(db, { transport, lock: processLock })).toMatchObject({ sent: 2, failed: 0 });
    expect((await s.call('GET', `/studies/${server.id}`)).status).toBe(404);
    expect(await db.outbox.count()).toBe(0);
  });
});
