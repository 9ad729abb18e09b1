// The page's sync loop: what triggers a replay or a pull, and what a 401, an offline answer and a
// full disk do to its status. Driven with a fake window and a scripted transport.
import { describe, expect, it, vi } from 'vitest';
import { SyncEngine, type EngineStatus } from '../../../src/local/engine';
import { processLock } from '../../../src/local/locks';
import { OUTBOX_SENT_MESSAGE } from '../../../src/local/replay';
import { updateEntity } from '../../../src/local/outbox';
import { NetworkError, type Transport, type TransportRequest } from '../../../src/local/transport';
import { checkPersisted } from '../../../src/app/lib/persist';
import { freshDb } from './harness';

function fakeWindow(online = true) {
  const target = new EventTarget();
  return Object.assign(target, { navigator: { onLine: online } });
}

/** Answers every pull with an empty page, every mutation with `mutation()`; nothing while offline. */
function scripted(
  mutation: (req: TransportRequest) => Promise<{ status: number; body: unknown }>,
  online: () => boolean = () => true,
) {
  const log: string[] = [];
  const transport: Transport = async (req) => {
    log.push(`${req.method} ${req.path.split('?')[0]}`);
    if (!online()) throw new NetworkError('offline');
    if (req.method === 'GET')
      return req.path.includes('/ids')
        ? { status: 200, body: { ids: [] } }
        : { status: 200, body: { result: [], deletedIds: [], cursor: '0', hasMore: false } };
    return mutation(req);
  };
  return { transport, log };
}

describe('SyncEngine', () => {
  it('replays and pulls on start, and again when the browser comes back online', async () => {
    const db = freshDb();
    await updateEntity(db, 'studies', 's1', { set: { name: 'x' } });
    let online = false;
    const { transport, log } = scripted(
      async () => ({ status: 200, body: { result: { id: 's1', name: 'x' } } }),
      () => online,
    );
    const win = fakeWindow(false);
    const statuses: EngineStatus[] = [];
    const engine = new SyncEngine({
      db,
      transport,
      userId: 'u1',
      lock: processLock,
      window: win,
      onStatus: (s) => statuses.push(s),
    });
    engine.start();
    await vi.waitFor(() => expect(log).toContain('PATCH /studies/s1'));
    expect(await db.outbox.count()).toBe(1);
    expect(engine.current.online).toBe(false);

    online = true;
    win.navigator.onLine = true;
    win.dispatchEvent(new Event('online'));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(engine.current.online).toBe(true);
    await vi.waitFor(() =>
      expect(log.filter((l) => l === 'GET /sync/studies').length).toBeGreaterThanOrEqual(2),
    );
    engine.stop();
  });

  it('stops at a 401 until signedIn(), and keeps the entry', async () => {
    const db = freshDb();
    await updateEntity(db, 'studies', 's1', { set: { name: 'x' } });
    let status = 401;
    const { transport } = scripted(async () => ({ status, body: { message: 'User is not logged in' } }));
    const engine = new SyncEngine({ db, transport, userId: 'u1', lock: processLock });
    await engine.kick();
    expect(engine.current.signInNeeded).toBe(true);
    expect(await db.outbox.count()).toBe(1);
    await engine.kick(); // nothing is sent while sign-in is needed
    status = 200;
    engine.signedIn();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(engine.current.signInNeeded).toBe(false);
    engine.stop();
  });

  it('retries a deferred entry on a timer after the backoff', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const db = freshDb();
      await updateEntity(db, 'studies', 's1', { set: { name: 'x' } });
      let answers = [503, 200];
      const { transport, log } = scripted(async () => {
        const status = answers[0];
        answers = answers.slice(1);
        return { status, body: status === 200 ? { result: { id: 's1' } } : { message: 'busy' } };
      });
      const engine = new SyncEngine({ db, transport, userId: 'u1', lock: processLock });
      await engine.kick();
      expect(await db.outbox.get((await db.outbox.toArray())[0].id)).toMatchObject({
        attempts: 1,
        status: 503,
      });
      await vi.advanceTimersByTimeAsync(5_000);
      await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
      expect(log.filter((l) => l.startsWith('PATCH'))).toHaveLength(2);
      engine.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('pulls every kind again once a replay has sent something (server-side effects come in at once)', async () => {
    const db = freshDb();
    const { transport, log } = scripted(async () => ({ status: 200, body: { result: { id: 'l1' } } }));
    const engine = new SyncEngine({ db, transport, userId: 'u1', lock: processLock });
    const pullsOfOrders = () => log.filter((l) => l === 'GET /sync/scan-orders').length;
    await engine.kick(); // nothing to send: no pull
    expect(pullsOfOrders()).toBe(0);
    await updateEntity(db, 'scan-order-lists', 'l1', { set: { status: 'active' } });
    await engine.kick();
    await vi.waitFor(() => expect(pullsOfOrders()).toBe(1));
    engine.stop();
  });

  it("pulls every kind when the service worker's replay sent something (the page's own found nothing)", async () => {
    const db = freshDb();
    const { transport, log } = scripted(async () => ({ status: 200, body: { result: {} } }));
    const worker = new EventTarget();
    const engine = new SyncEngine({
      db,
      transport,
      userId: 'u1',
      lock: processLock,
      serviceWorker: worker as unknown as ServiceWorkerContainer,
    });
    const pullsOfOrders = () => log.filter((l) => l === 'GET /sync/scan-orders').length;
    engine.start();
    await vi.waitFor(() => expect(pullsOfOrders()).toBe(1)); // the pull on start
    await engine.kick();
    worker.dispatchEvent(new MessageEvent('message', { data: { type: 'something else' } }));
    await new Promise((r) => setTimeout(r, 20));
    expect(pullsOfOrders()).toBe(1);
    worker.dispatchEvent(new MessageEvent('message', { data: { type: OUTBOX_SENT_MESSAGE } }));
    await vi.waitFor(() => expect(pullsOfOrders()).toBe(2));
    engine.stop();
    worker.dispatchEvent(new MessageEvent('message', { data: { type: OUTBOX_SENT_MESSAGE } }));
    await new Promise((r) => setTimeout(r, 20));
    expect(pullsOfOrders()).toBe(2);
  });

  it('coalesces many kicks into one more run', async () => {
    const db = freshDb();
    const { transport } = scripted(async () => ({ status: 200, body: { result: null } }));
    const engine = new SyncEngine({ db, transport, userId: 'u1', lock: processLock });
    const runs = await Promise.all([engine.kick(), engine.kick(), engine.kick()]);
    expect(runs).toHaveLength(3);
    engine.stop();
  });
});

describe('the persisted query cache is checked before use', () => {
  it.each([
    [undefined, false],
    ['junk', false],
    [{ timestamp: 'x', buster: 'u', clientState: { queries: [] } }, false],
    [{ timestamp: 1, buster: 'u', clientState: { queries: 'no' } }, false],
    [{ timestamp: 1, buster: 'u', clientState: { queries: [] } }, true],
  ])('%j → usable: %s', (value, usable) => {
    expect(!!checkPersisted(value)).toBe(usable);
  });

  it('leaves out malformed queries and keeps the good ones', () => {
    const good = { queryKey: ['a'], queryHash: '["a"]', state: { data: 1 } };
    const restored = checkPersisted({
      timestamp: 1,
      buster: 'u',
      clientState: { queries: [good, { queryKey: 'x' }, null], mutations: [{}] },
    });
    expect(restored?.clientState.queries).toEqual([good]);
    expect(restored?.clientState.mutations).toEqual([]);
  });
});
