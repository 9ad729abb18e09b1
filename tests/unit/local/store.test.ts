// The local store does not trust what IndexedDB gives back (STYLE §6): damaged rows are repaired or
// left out, damaged outbox entries are kept but never sent, the v1 session survives the v2 upgrade,
// a full disk frees the caches once and then says so, a new user never sees the last one's mirror, and
// kept annotation sets stay bounded.
import Dexie from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import type { Study } from '../../../src/api/entities';
import { LocalDb } from '../../../src/local/db';
import { applyServerChanges } from '../../../src/local/mirror';
import { DAMAGED_ENTRY, listEntries, updateEntity } from '../../../src/local/outbox';
import {
  freeSpace,
  isQuotaError,
  STORAGE_FULL,
  StorageFullError,
  withQuotaRetry,
} from '../../../src/local/quota';
import { writeKept } from '../../../src/local/kept-sets';
import { getValue } from '../../../src/local/kv';
import { observe, prepareForUser, readRow, readRows } from '../../../src/local/read';
import { loadSession, saveSession } from '../../../src/local/session';
import { replayOutbox } from '../../../src/local/replay';
import { processLock } from '../../../src/local/locks';
import { freshDb, studyRow } from './harness';

const study = studyRow;

describe('reading back', () => {
  it('repairs a row with damaged fields, leaves out one with an empty id, and asks for a full pull', async () => {
    const db = freshDb();
    await db.cursors.put({ kind: 'studies', cursor: '42' });
    await db.studies.bulkPut([
      study('good') as never,
      { ...study('torn'), tags: 'not a list', name: 7 } as never,
    ]);
    await db.studies.put({ id: '', name: 'empty id' });
    const rows = await readRows<Study>(db, 'studies');
    expect(rows.map((r) => r.id).sort()).toEqual(['good', 'torn']);
    expect(rows.find((r) => r.id === 'torn')).toMatchObject({ tags: [], name: '' });
    await vi.waitFor(async () => expect((await db.cursors.get('studies'))?.resync).toBe(true));
  });

  it('keeps a damaged outbox entry, as failed, and never sends it', async () => {
    const db = freshDb();
    await db.outbox.add({ id: 'broken', seq: 1, method: 'PATCH', path: 42 } as never);
    await updateEntity(db, 'studies', 's1', { set: { name: 'x' } });
    const entries = await listEntries(db);
    expect(entries[0]).toMatchObject({ id: 'broken', state: 'failed', error: DAMAGED_ENTRY });
    const sent: string[] = [];
    await replayOutbox(db, {
      lock: processLock,
      transport: async (req) => (sent.push(req.path), { status: 200, body: { result: null } }),
    });
    expect(sent).toEqual(['/studies/s1']);
    expect(await db.outbox.get('broken')).toBeDefined();
  });

  it('a pull under a pending change keeps the change on top of the new server copy', async () => {
    const db = freshDb();
    await applyServerChanges(db, 'studies', [study('s1', { tags: ['a'] })]);
    await updateEntity(db, 'studies', 's1', { set: { name: 'mine' }, add: { tags: ['b'] } });
    await db.transaction('rw', [db.studies, db.outbox], () =>
      applyServerChanges(db, 'studies', [
        study('s1', { tags: ['a', 'c'], updatedAt: '2026-02-01T00:00:00.000Z' }),
      ]),
    );
    expect(await readRow<Study>(db, 'studies', 's1')).toMatchObject({
      name: 'mine',
      tags: ['a', 'c', 'b'],
      $pending: 1,
    });
    // An older copy arriving late does not replace the newer base.
    await applyServerChanges(db, 'studies', [study('s1', { tags: ['old'] })]);
    expect((await db.studies.get('s1'))?.$base).toMatchObject({ tags: ['a', 'c'] });
  });
});

describe('live answers', () => {
  it('answers at once, then at most once per window however many writes come, ending on the latest state', async () => {
    const db = freshDb();
    let runs = 0;
    const seen: number[] = [];
    const stop = observe(
      async () => (runs++, db.studies.count()),
      (n) => seen.push(n),
      undefined,
      100,
    );
    // Waits on outcomes, not on fixed delays, so a loaded machine does not make it fail.
    await vi.waitFor(() => expect(seen).toEqual([0]));
    const started = Date.now();
    for (let i = 0; i < 50; i++) await db.studies.put({ id: `s${i}`, name: 'x' });
    await vi.waitFor(() => expect(seen[seen.length - 1]).toBe(50), { timeout: 5000 });
    const windows = Math.ceil((Date.now() - started) / 100);
    await new Promise((r) => setTimeout(r, 250)); // nothing more comes after the latest state
    stop();
    expect(seen[seen.length - 1]).toBe(50);
    // At most one answer per 100 ms window (plus the first), however slow the machine made the writes.
    expect(seen.length).toBeLessThanOrEqual(Math.min(25, 2 + windows));
    expect(runs).toBeLessThanOrEqual(3 + 3 * windows);
  });
});

describe('upgrade and ownership', () => {
  it('opens a version-1 database with its session intact', async () => {
    const name = `v1-${Date.now()}`;
    const v1 = new Dexie(name);
    v1.version(1).stores({ session: 'key' });
    const me = {
      user: { id: '00000000-0000-4000-8000-000000000001' },
    };
    await v1
      .table('session')
      .put({ key: 'current', me, accessExpires: 'x', refreshExpires: 'y', savedAt: 'z' });
    v1.close();
    const db = new LocalDb(name);
    expect(await db.session.get('current')).toMatchObject({ key: 'current' });
    expect(db.verno).toBe(5);
    expect(await db.studies.count()).toBe(0);
    // The session module still round-trips through the upgraded database.
    const refreshExpires = new Date(Date.now() + 60_000).toISOString();
    const stored = await saveSession(
      { me: (await db.session.get('current'))!.me, accessExpires: 'a', refreshExpires },
      db,
    );
    expect(stored.refreshExpires).toBe(refreshExpires);
    await loadSession(db); // a damaged `me` is dropped rather than trusted
  });

  it('upgrades a version-4 mirror to version 5 in place (unread indexes dropped, rows and outbox kept)', async () => {
    const name = `v4-${Date.now()}`;
    const v4 = new Dexie(name);
    v4.version(4).stores({
      session: 'key',
      scanGroups: 'id, updatedAt, createdAt, simpleId, organizationId, lastUploadDate, $hidden',
      images: 'id, updatedAt, createdAt, scanGroupId, $hidden',
      studies: 'id, updatedAt, createdAt, name, organizationId, $hidden',
      outbox: 'id, seq, target, state, *refs',
      cursors: 'kind',
      meta: 'key',
    });
    const slide = (id: string, createdAt: string) => ({ id, simpleId: id, createdAt, updatedAt: createdAt });
    await v4.table('scanGroups').bulkPut([slide('a', '2026-01-01'), slide('b', '2026-01-02')]);
    await v4.table('images').put({ id: 'i', scanGroupId: 'b', createdAt: '2026-01-02' });
    await v4.table('cursors').put({ kind: 'scan-groups', cursor: '42' });
    v4.close();
    const db = new LocalDb(name);
    await db.open();
    expect(db.verno).toBe(5);
    expect(db.scanGroups.schema.indexes.map((i) => i.name).sort()).toEqual([
      '$hidden',
      'createdAt',
      'simpleId',
    ]);
    expect(await db.scanGroups.orderBy('createdAt').reverse().primaryKeys()).toEqual(['b', 'a']);
    expect((await db.images.where('scanGroupId').equals('b').toArray()).map((i) => i.id)).toEqual(['i']);
    expect(await db.cursors.get('scan-groups')).toMatchObject({ cursor: '42' });
    db.close();
  });

  it('clears the mirror when another user signs in, keeping the outbox', async () => {
    const db = freshDb();
    await prepareForUser(db, 'u1');
    await applyServerChanges(db, 'studies', [study('s1')]);
    await updateEntity(db, 'studies', 's1', { set: { name: 'u1 edit' } }, { userId: 'u1' });
    await prepareForUser(db, 'u1');
    expect(await db.studies.count()).toBe(1);
    await prepareForUser(db, 'u2');
    expect(await db.studies.count()).toBe(0);
    expect(await db.outbox.count()).toBe(1);
  });
});

describe('a full disk', () => {
  const quota = () => Object.assign(new Error('full'), { name: 'QuotaExceededError' });

  it('recognises the quota error, also wrapped by Dexie', () => {
    expect(isQuotaError(quota())).toBe(true);
    expect(isQuotaError({ name: 'AbortError', inner: quota() })).toBe(true);
    expect(isQuotaError(new Error('other'))).toBe(false);
  });

  it('frees the query cache and retries once, then gives a sentence the user can act on', async () => {
    const db = freshDb();
    await db.meta.put({ key: 'queryCache', value: 'big' });
    let calls = 0;
    expect(await withQuotaRetry(db, async () => (++calls === 1 ? Promise.reject(quota()) : 'ok'))).toBe('ok');
    expect(await db.meta.get('queryCache')).toBeUndefined();
    const never = withQuotaRetry(db, async () => Promise.reject(quota()));
    await expect(never).rejects.toBeInstanceOf(StorageFullError);
    await expect(never).rejects.toThrow(STORAGE_FULL);
  });
});

describe('kept sets', () => {
  it('keeps the most recently written sets of a prefix, and a full disk drops them all', async () => {
    const db = freshDb();
    for (const image of ['a', 'b', 'c', 'd'])
      await writeKept('annotationSet:', `annotationSet:u1:${image}`, { json: image }, { db, limit: 3 });
    // Writing 'b' again makes it the newest: 'c' is then the oldest and goes with the next write.
    await writeKept('annotationSet:', 'annotationSet:u1:b', { json: 'b2' }, { db, limit: 3 });
    await writeKept('annotationSet:', 'annotationSet:u1:e', { json: 'e' }, { db, limit: 3 });
    const kept = async () =>
      (await db.meta.where('key').startsWith('annotationSet:').primaryKeys()).map(String).sort();
    expect(await kept()).toEqual(['annotationSet:u1:b', 'annotationSet:u1:d', 'annotationSet:u1:e']);
    expect(await getValue('annotationSet:u1:b', db)).toEqual({ json: 'b2' });
    expect(await getValue('annotationSet:u1:a', db)).toBeUndefined();

    await db.meta.put({ key: 'mirrorUserId', value: 'u1' });
    await freeSpace(db);
    expect(await kept()).toEqual([]);
    expect(await db.meta.get('mirrorUserId')).toBeDefined();
  });
});
