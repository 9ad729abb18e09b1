// Replay with its answers stored in batches (replay.ts batchStore), against a real server: a long
// queue of creates, each followed by changes made to it under its temporary id, while a reader keeps
// reading the table as a list page does; and a run whose writes fail half-way, resumed from a new
// connection. Each entry must reach the server exactly once, in order for its row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Study } from '../../../src/api/entities';
import { STUDY_NAME_MAX } from '../../../src/api/constants';
import { LocalDb } from '../../../src/local/db';
import { processLock } from '../../../src/local/locks';
import { createEntity, enqueue, updateEntity } from '../../../src/local/outbox';
import { readRow, readRows } from '../../../src/local/read';
import { replayOutbox } from '../../../src/local/replay';
import type { Transport } from '../../../src/local/transport';
import { controllable, freshDb, startServer, type Server } from './harness';

describe('replay: answers stored in batches', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  const namedLike = async (prefix: string) =>
    (
      await s.call<{ result: Study[] }>('GET', `/studies?name=${encodeURIComponent(prefix)}&limit=100`)
    ).body.result.filter((st) => st.name.startsWith(prefix));

  it('creates renamed and tagged under their temporary ids, a refused one among them, while a list reads', async () => {
    const db = freshDb();
    const stamp = `batch ${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { id } = await createEntity(db, 'studies', { name: `${stamp} ${i} draft` });
      await updateEntity(db, 'studies', id, { set: { name: `${stamp} ${i}` } });
      await updateEntity(db, 'studies', id, { add: { tags: [`t${i}`] } });
      ids.push(id);
      if (i === 10)
        await enqueue(db, {
          method: 'POST',
          path: '/studies',
          body: { study: { name: 'x'.repeat(STUDY_NAME_MAX + 1) } },
          target: 'studies:crafted',
        });
    }
    let reading = true;
    const reader = (async () => {
      let reads = 0;
      while (reading) {
        await readRows<Study>(db, 'studies', { orderBy: 'updatedAt', reverse: true });
        reads++;
      }
      return reads;
    })();
    const result = await replayOutbox(db, { transport: await s.transportFor(), lock: processLock });
    reading = false;
    expect(await reader).toBeGreaterThan(0);

    expect(result).toMatchObject({ sent: 90, failed: 1 });
    const onServer = await namedLike(stamp);
    expect(onServer).toHaveLength(30);
    for (let i = 0; i < 30; i++) {
      const mine = onServer.filter((st) => st.name === `${stamp} ${i}`);
      expect(mine).toHaveLength(1);
      expect(mine[0].tags).toEqual([`t${i}`]);
      // The local row moved to the server's id and carries no local change.
      expect(await readRow<Study>(db, 'studies', ids[i])).toMatchObject({ id: mine[0].id, tags: [`t${i}`] });
      expect((await db.studies.get(mine[0].id))?.$pending).toBeUndefined();
    }
    const left = await db.outbox.toArray();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ state: 'failed', status: 400, target: 'studies:crafted' });
    expect(await db.studies.get('crafted')).toMatchObject({ $hidden: 1 });
  });

  it('a run whose writes fail half-way leaves its entries queued; the next run sends each exactly once', async () => {
    const name = `interrupted-${Date.now()}`;
    const stamp = `interrupted ${Date.now()}`;
    const first = new LocalDb(name);
    for (let i = 0; i < 24; i++) await createEntity(first, 'studies', { name: `${stamp} ${i}` });
    const inner = await s.transportFor();
    let answers = 0;
    // After a few answers the database goes away under the replay (a tab closed, storage lost).
    const transport: Transport = async (req) => {
      const res = await inner(req);
      if (++answers === 6) first.close();
      return res;
    };
    // Two entries per request, so the database goes away with most of the queue still to store.
    await expect(replayOutbox(first, { transport, lock: processLock, batch: 2 })).rejects.toThrow();
    const again = new LocalDb(name);
    const left = await again.outbox.count();
    expect(left).toBeGreaterThan(0);
    const result = await replayOutbox(again, { transport: inner, lock: processLock });
    expect(result).toMatchObject({ sent: left, failed: 0 });
    expect(await again.outbox.count()).toBe(0);
    const onServer = await namedLike(stamp);
    expect(onServer).toHaveLength(24);
    expect(new Set(onServer.map((st) => st.name)).size).toBe(24);
    expect(await again.studies.count()).toBe(24);
  });

  it('goes out in batch requests; a lost batch answer is resent under the same keys, each entry applied once', async () => {
    const db = freshDb();
    const stamp = `lost batch ${Date.now()}`;
    for (let i = 0; i < 12; i++) await createEntity(db, 'studies', { name: `${stamp} ${i}` });
    const { transport, state } = controllable(await s.transportFor());
    // The server applies the batch, then the connection drops before its answer arrives.
    state.loseAnswer = (_method, path) => path === '/sync/batch';
    expect(await replayOutbox(db, { transport, lock: processLock })).toMatchObject({ stopped: 'offline' });
    expect(state.log).toEqual(['POST /sync/batch']);
    expect(await namedLike(stamp)).toHaveLength(12); // the creates are on the server
    state.log.length = 0;
    expect(await replayOutbox(db, { transport, lock: processLock })).toMatchObject({ sent: 12, failed: 0 });
    // The same 12 entries in one batch, answered from their stored outcomes.
    expect(state.log).toEqual(['POST /sync/batch']);
    const onServer = await namedLike(stamp);
    expect(onServer).toHaveLength(12);
    expect(new Set(onServer.map((st) => st.name)).size).toBe(12);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.studies.count()).toBe(12);
  });
});
