// The overwritten-value notices (src/local/overwrites.ts) against a real server: a device's late
// rename that replaced a newer name leaves a notice on that device only, naming both values; restoring
// puts the other value back on the server and tells no one anything; a device's own renames in a row
// never count as overwriting each other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Study } from '../../../src/api/entities';
import { processLock } from '../../../src/local/locks';
import { updateEntity } from '../../../src/local/outbox';
import { listOverwrites, restoreOverwrite } from '../../../src/local/overwrites';
import { pullKind } from '../../../src/local/pull';
import { replayOutbox } from '../../../src/local/replay';
import { freshDb, startServer, type Server } from './harness';

describe('overwritten values', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  const newStudy = async (name: string) =>
    (await s.call<{ result: Study }>('POST', '/studies', { study: { name } })).body.result;
  const serverName = async (id: string) =>
    (await s.call<{ result: Study }>('GET', `/studies/${id}`)).body.result.name;

  it('a late rename over a newer one: a notice on that device only; restore puts the other name back', async () => {
    const study = await newStudy('Liver');
    const [late, online] = [freshDb(), freshDb()];
    const transport = await s.transportFor();
    for (const db of [late, online]) await pullKind(db, transport, 'studies');
    await updateEntity(late, 'studies', study.id, { set: { name: 'Liver (late)' } });
    await updateEntity(online, 'studies', study.id, { set: { name: 'Liver (online)' } });
    await replayOutbox(online, { transport, lock: processLock });
    await replayOutbox(late, { transport, lock: processLock });
    expect(await serverName(study.id)).toBe('Liver (late)');

    const notices = await listOverwrites(late, undefined);
    expect(notices).toMatchObject([
      {
        kind: 'studies',
        id: study.id,
        field: 'name',
        serverValue: 'Liver (online)',
        yourValue: 'Liver (late)',
      },
    ]);
    expect(await listOverwrites(online, undefined)).toEqual([]);

    await restoreOverwrite(late, notices[0].key, undefined);
    expect(await listOverwrites(late, undefined)).toEqual([]);
    expect((await late.studies.get(study.id))?.name).toBe('Liver (online)');
    await replayOutbox(late, { transport, lock: processLock });
    expect(await serverName(study.id)).toBe('Liver (online)');
    expect(await listOverwrites(late, undefined)).toEqual([]);
  });

  it("a device's own renames in a row, and a notice kept for its user only", async () => {
    const study = await newStudy('Kidney');
    const db = freshDb();
    const transport = await s.transportFor();
    await pullKind(db, transport, 'studies');
    for (const name of ['Kidney 1', 'Kidney 2', 'Kidney 3'])
      await updateEntity(db, 'studies', study.id, { set: { name } }, { userId: 'u1' });
    // Sent one by one: each lands on the row the previous one moved.
    await replayOutbox(db, { transport, lock: processLock, batch: 1, concurrency: 1 });
    expect(await serverName(study.id)).toBe('Kidney 3');
    expect(await listOverwrites(db, 'u1')).toEqual([]);

    await s.call('PATCH', `/studies/${study.id}`, { study: { name: 'Kidney (other)' } });
    await updateEntity(db, 'studies', study.id, { set: { name: 'Kidney 4' } }, { userId: 'u1' });
    await replayOutbox(db, { transport, lock: processLock, userId: 'u1' });
    expect(await listOverwrites(db, 'u1')).toHaveLength(1);
    expect(await listOverwrites(db, 'u2')).toEqual([]);
  });
});
