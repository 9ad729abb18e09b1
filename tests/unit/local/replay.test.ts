// Replaying the outbox. First tables of scripted server answers (compact: 'a:201 b:400' means the
// entry for row a is answered 201, then b's 400), one entry per request and in batches, then the
// issue-4 scenarios against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Study } from '../../../src/api/entities';
import { STUDY_NAME_MAX } from '../../../src/api/constants';
import { processLock } from '../../../src/local/locks';
import { createEntity, enqueue, updateEntity } from '../../../src/local/outbox';
import { pullKind } from '../../../src/local/pull';
import { IDEMPOTENCY_IN_PROGRESS } from '../../../src/api/idempotency';
import { readRow, readRows } from '../../../src/local/read';
import { discardUnsent, replayOutbox, type ReplayResult } from '../../../src/local/replay';
import { NetworkError, type Transport } from '../../../src/local/transport';
import { LocalDb } from '../../../src/local/db';
import { controllable, freshDb, startServer, type Server } from './harness';

/** Runs a replay against scripted answers; returns each row's entry state and how the run ended. */
async function scripted(script: string): Promise<string> {
  const db = freshDb();
  const steps = script.split(/\s+/).map((s) => s.split(':') as [string, string]);
  for (const [row] of steps) await updateEntity(db, 'studies', row, { set: { name: row } });
  const answers = steps.map(([, answer]) => answer).filter((a) => a !== '_'); // '_': never sent
  const transport: Transport = async () => {
    const answer = answers.shift();
    if (answer === 'net') throw new NetworkError('offline');
    // 'busy': the server still runs this entry's first send (its Idempotency-Key is reserved).
    if (answer === 'busy')
      return { status: 409, body: { message: 'still running', code: IDEMPOTENCY_IN_PROGRESS } };
    const status = Number(answer);
    return { status, body: status < 300 ? { result: {} } : { message: `refused ${status}` } };
  };
  const result: ReplayResult = await replayOutbox(db, {
    transport,
    lock: processLock,
    concurrency: 1,
    batch: 1,
  });
  return describeRun(db, steps, result);
}

async function describeRun(db: LocalDb, steps: Array<[string, string]>, result: ReplayResult) {
  const entries = await db.outbox.orderBy('seq').toArray();
  const states = steps.map(([row], i) => {
    const e = entries.find((x) => x.target === `studies:${row}` && x.seq === i + 1);
    if (!e) return `${row}=sent`;
    if (e.state === 'failed') return `${row}=failed(${e.error})`;
    return `${row}=pending${e.nextAttemptAt ? '+backoff' : ''}`;
  });
  return [...states, result.stopped ? `stopped:${result.stopped}` : 'done'].join(' ');
}

// [answers in order, then what became of each entry and how the run ended]
const REPLAY_CASES: Array<[string, string]> = [
  ['a:200 b:200', 'a=sent b=sent done'],
  ['a:400 b:200', 'a=failed(refused 400) b=sent done'],
  ['a:403 b:404', 'a=failed(refused 403) b=failed(refused 404) done'],
  ['a:409 a:200', 'a=failed(refused 409) a=sent done'],
  ['a:503 b:200', 'a=pending+backoff b=sent done'],
  ['a:429 b:200', 'a=pending+backoff b=sent done'],
  ['a:busy b:200', 'a=pending+backoff b=sent done'],
  // A row's later entries wait behind its deferred one (the order of one row's changes is kept).
  ['a:500 a:_ b:200', 'a=pending+backoff a=pending b=sent done'],
  ['a:net b:_', 'a=pending b=pending stopped:offline'],
  ['a:200 b:401 c:_', 'a=sent b=pending c=pending stopped:unauthorized'],
];

describe('replay: scripted answers', () => {
  it.each(REPLAY_CASES)('%s → %s', async (script, expected) => {
    expect(await scripted(script)).toBe(expected);
  });
});

/**
 * The same in batches: `script` gives each entry's answer inside the batch answer, `whole` what the
 * batch request itself gets first ('net', or a status answering the whole batch; after a 404, 405 or
 * 400 the entries go one by one and take their answers from the script). Returns the requests made
 * (`batch(n)` or `one`), each entry's state and how the run ended.
 */
async function scriptedBatch(script: string, whole?: string): Promise<string> {
  const db = freshDb();
  const steps = script.split(/\s+/).map((s) => s.split(':') as [string, string]);
  for (const [row] of steps) await updateEntity(db, 'studies', row, { set: { name: row } });
  const answers = steps.map(([, answer]) => answer);
  const requests: string[] = [];
  const answer = (a: string | undefined) => {
    if (a === 'net') throw new NetworkError('offline');
    const status = Number(a);
    return { status, body: status < 300 ? { result: {} } : { message: `refused ${status}` } };
  };
  let first = whole;
  const transport: Transport = async (req) => {
    if (req.path !== '/sync/batch') {
      requests.push('one');
      return answer(answers.shift());
    }
    const entries = (req.body as { entries: Array<{ id: string }> }).entries;
    requests.push(`batch(${entries.length})`);
    const w = first;
    first = undefined;
    if (w) return answer(w);
    const results = entries.map(({ id }) => ({ id, ...answer(answers.shift()) }));
    return { status: 200, body: { results } };
  };
  const result = await replayOutbox(db, { transport, lock: processLock, concurrency: 1 });
  return `${requests.join(',')} ${await describeRun(db, steps, result)}`;
}

// [per-entry answers, the batch request's own first answer, what happened]
const BATCH_CASES: Array<[string, string | undefined, string]> = [
  ['a:200 b:200 c:200', undefined, 'batch(3) a=sent b=sent c=sent done'],
  // A refused entry does not block the ones after it in the same batch.
  ['a:400 b:200 c:403', undefined, 'batch(3) a=failed(refused 400) b=sent c=failed(refused 403) done'],
  ['a:503 b:200', undefined, 'batch(2) a=pending+backoff b=sent done'],
  // Two entries of one row never share a batch: the second waits for the first's answer.
  ['a:200 b:200 a:409', undefined, 'batch(2),one a=sent b=sent a=failed(refused 409) done'],
  ['a:200 b:401', undefined, 'batch(2) a=sent b=pending stopped:unauthorized'],
  ['a:_ b:_', 'net', 'batch(2) a=pending b=pending stopped:offline'],
  ['a:_ b:_', '401', 'batch(2) a=pending b=pending stopped:unauthorized'],
  ['a:_ b:_', '503', 'batch(2) a=pending+backoff b=pending+backoff done'],
  // A server without the batch call, or a batch refused as a whole: one by one, in order.
  ['a:200 b:400', '404', 'batch(2),one,one a=sent b=failed(refused 400) done'],
  ['a:200 b:200', '400', 'batch(2),one,one a=sent b=sent done'],
];

describe('replay: scripted answers in batches', () => {
  it.each(BATCH_CASES)('%s (batch answered %s) → %s', async (script, whole, expected) => {
    expect(await scriptedBatch(script, whole)).toBe(expected);
  });

  it('sends a long queue in batches of at most `batch` entries, in order', async () => {
    const db = freshDb();
    for (let i = 0; i < 25; i++) await updateEntity(db, 'studies', `r${i}`, { set: { name: `n${i}` } });
    const sizes: number[] = [];
    const paths: string[] = [];
    const transport: Transport = async (req) => {
      const entries = (req.body as { entries: Array<{ id: string; path: string }> }).entries;
      sizes.push(entries.length);
      paths.push(...entries.map((e) => e.path));
      return { status: 200, body: { results: entries.map(({ id }) => ({ id, status: 200, body: {} })) } };
    };
    expect(await replayOutbox(db, { transport, lock: processLock, batch: 10 })).toMatchObject({ sent: 25 });
    expect(sizes).toEqual([10, 10, 5]);
    expect(paths).toEqual(Array.from({ length: 25 }, (_, i) => `/studies/r${i}`));
  });
});

describe('replay: several in flight', () => {
  it('overlaps entries of different rows, never two of one row, and holds a use of a new id until its create is answered', async () => {
    const db = freshDb();
    const { id: created } = await createEntity(db, 'studies', { name: 'new' });
    await updateEntity(db, 'studies', created, { set: { name: 'renamed' } });
    for (const row of ['a', 'b', 'c', 'a', 'b'])
      await updateEntity(db, 'studies', row, { add: { tags: [row] } });
    const inflight = new Map<string, number>();
    let most = 0;
    const order: string[] = [];
    const transport: Transport = async (req) => {
      const row = req.path.split('/')[2] ?? 'create';
      if ((inflight.get(row) ?? 0) > 0) throw new Error(`two requests for ${row} at once`);
      inflight.set(row, 1);
      most = Math.max(
        most,
        [...inflight.values()].reduce((a, b) => a + b, 0),
      );
      await new Promise((r) => setTimeout(r, 20));
      inflight.set(row, 0);
      order.push(`${req.method} ${row}`);
      const id = row === 'create' ? 'server-id' : row;
      return { status: 200, body: { result: { id, name: 'x', tags: [] } } };
    };
    expect(await replayOutbox(db, { transport, lock: processLock, batch: 1 })).toMatchObject({
      sent: 7,
      failed: 0,
    });
    expect(most).toBeGreaterThan(1);
    // The rename of the new study went out after its create, to the server's id.
    expect(order.indexOf('PATCH server-id')).toBeGreaterThan(order.indexOf('POST create'));
    expect(order.filter((o) => o.endsWith(' a'))).toHaveLength(2);
    // A page still holding the temporary id (a link clicked just before) finds the row under its new id.
    expect(await readRow<Study>(db, 'studies', created)).toMatchObject({ id: 'server-id', name: 'x' });
    expect(await readRow<Study>(db, 'studies', 'never-made')).toBeUndefined();
  });
});

describe('replay against the server', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  const studiesNamed = async (name: string) => {
    const res = await s.call<{ result: Study[] }>(
      'GET',
      `/studies?name=${encodeURIComponent(name)}&limit=100`,
    );
    return res.body.result.filter((st) => st.name === name);
  };

  it('a study created offline survives a reload, and reaches the server exactly once', async () => {
    const name = `offline create ${Date.now()}`;
    const dbName = `reload-${Date.now()}`;
    const tab = new LocalDb(dbName);
    const { transport, state } = controllable(await s.transportFor());
    state.offline = true;
    const { id } = await createEntity(tab, 'studies', { name }, { preview: { tags: [], scanGroupIds: [] } });
    expect(await replayOutbox(tab, { transport, lock: processLock })).toMatchObject({ stopped: 'offline' });
    tab.close();

    const reopened = new LocalDb(dbName); // the reload
    expect(await reopened.studies.get(id)).toMatchObject({ name, $pending: 1 });
    state.offline = false;
    expect(await replayOutbox(reopened, { transport, lock: processLock })).toMatchObject({ sent: 1 });
    const onServer = await studiesNamed(name);
    expect(onServer).toHaveLength(1);
    expect(await reopened.outbox.count()).toBe(0);
    // The row now lives under the server's id, in sync.
    expect(await reopened.studies.get(id)).toBeUndefined();
    expect(await readRow<Study>(reopened, 'studies', onServer[0].id)).toMatchObject({ name });
    expect((await reopened.studies.get(onServer[0].id))?.$pending).toBeUndefined();
  });

  it('the server commits but the answer is lost: after the retry there is still one', async () => {
    const name = `lost answer ${Date.now()}`;
    const db = freshDb();
    const { transport, state } = controllable(await s.transportFor());
    await createEntity(db, 'studies', { name });
    state.loseAnswer = (method) => method === 'POST';
    expect(await replayOutbox(db, { transport, lock: processLock })).toMatchObject({ stopped: 'offline' });
    expect(await studiesNamed(name)).toHaveLength(1); // committed
    expect(await replayOutbox(db, { transport, lock: processLock })).toMatchObject({ sent: 1 });
    expect(await studiesNamed(name)).toHaveLength(1);
    expect(await db.outbox.count()).toBe(0);
  });

  it('renamed twice and tagged offline: the server ends with the last name and the tag', async () => {
    const created = await s.call<{ result: Study }>('POST', '/studies', { study: { name: 'to rename' } });
    const study = created.body.result;
    const db = freshDb();
    const { transport, state } = controllable(await s.transportFor());
    await pullKind(db, transport, 'studies');
    state.offline = true;
    await updateEntity(db, 'studies', study.id, { set: { name: 'first name' } });
    await updateEntity(db, 'studies', study.id, { set: { name: 'second name' } });
    await updateEntity(db, 'studies', study.id, { add: { tags: ['urgent'] } });
    expect(await readRow<Study>(db, 'studies', study.id)).toMatchObject({
      name: 'second name',
      tags: ['urgent'],
      $pending: 3,
    });
    state.offline = false;
    expect(await replayOutbox(db, { transport, lock: processLock })).toMatchObject({ sent: 3, failed: 0 });
    const after = await s.call<{ result: Study }>('GET', `/studies/${study.id}`);
    expect(after.body.result).toMatchObject({ name: 'second name', tags: ['urgent'] });
    expect(await db.studies.get(study.id)).toMatchObject({ name: 'second name', tags: ['urgent'] });
  });

  it('two clients add different tags offline: both tags everywhere', async () => {
    const study = (await s.call<{ result: Study }>('POST', '/studies', { study: { name: 'two tags' } })).body
      .result;
    const [one, two] = [freshDb(), freshDb()];
    const transport = await s.transportFor();
    await pullKind(one, transport, 'studies');
    await pullKind(two, transport, 'studies');
    await updateEntity(one, 'studies', study.id, { add: { tags: ['left'] } });
    await updateEntity(two, 'studies', study.id, { add: { tags: ['right'] } });
    await replayOutbox(one, { transport, lock: processLock });
    await replayOutbox(two, { transport, lock: processLock });
    await pullKind(one, transport, 'studies');
    await pullKind(two, transport, 'studies');
    const server = (await s.call<{ result: Study }>('GET', `/studies/${study.id}`)).body.result;
    expect([...server.tags].sort()).toEqual(['left', 'right']);
    for (const db of [one, two])
      expect([...((await readRow<Study>(db, 'studies', study.id))?.tags ?? [])].sort()).toEqual([
        'left',
        'right',
      ]);
  });

  it('a refused entry shows its error and does not block the next one', async () => {
    const db = freshDb();
    const transport = await s.transportFor();
    const good = `after the bad one ${Date.now()}`;
    // A crafted entry: the form would never send a name this long.
    const bad = await enqueue(db, {
      method: 'POST',
      path: '/studies',
      body: { study: { name: 'x'.repeat(STUDY_NAME_MAX + 1) } },
      target: 'studies:crafted',
    });
    await createEntity(db, 'studies', { name: good });
    const result = await replayOutbox(db, { transport, lock: processLock });
    expect(result).toMatchObject({ sent: 1, failed: 1 });
    const failed = await db.outbox.get(bad.id);
    expect(failed).toMatchObject({ state: 'failed', status: 400 });
    expect(failed?.error).toMatch(/at most 100 characters/);
    expect(await studiesNamed(good)).toHaveLength(1);
    // The crafted create was rolled back: nothing shows for it.
    expect((await readRows<Study>(db, 'studies')).some((r) => r.name.startsWith('xxx'))).toBe(false);
  });

  it('two tabs queue offline and replay at once: each entry reaches the server exactly once', async () => {
    const dbName = `tabs-${Date.now()}`;
    const [tabA, tabB] = [new LocalDb(dbName), new LocalDb(dbName)];
    const names = [`tab A ${Date.now()}`, `tab B ${Date.now()}`, `tab A2 ${Date.now()}`];
    await createEntity(tabA, 'studies', { name: names[0] });
    await createEntity(tabB, 'studies', { name: names[1] });
    await createEntity(tabA, 'studies', { name: names[2] });
    const transport = await s.transportFor();
    const runs = await Promise.all([
      replayOutbox(tabA, { transport, lock: processLock }),
      replayOutbox(tabB, { transport, lock: processLock }),
      replayOutbox(tabA, { transport, lock: processLock }),
    ]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(3);
    for (const name of names) expect(await studiesNamed(name)).toHaveLength(1);
    expect(await tabB.outbox.count()).toBe(0);
  });

  it('a change made offline to a row created offline follows it to its server id', async () => {
    const db = freshDb();
    const transport = await s.transportFor();
    const { id } = await createEntity(db, 'studies', { name: 'temp id' });
    await updateEntity(db, 'studies', id, {
      set: { name: `renamed temp ${Date.now()}` },
      add: { tags: ['t1'] },
    });
    expect(await replayOutbox(db, { transport, lock: processLock })).toMatchObject({ sent: 2, failed: 0 });
    const rows = await readRows<Study>(db, 'studies');
    const row = rows.find((r) => r.name.startsWith('renamed temp'));
    expect(row).toMatchObject({ tags: ['t1'] });
    expect(row?.id).not.toBe(id);
    expect((await s.call('GET', `/studies/${row!.id}`)).status).toBe(200);
  });

  it('a refused delete brings the row back, marked with the message', async () => {
    const study = (await s.call<{ result: Study }>('POST', '/studies', { study: { name: 'keep me' } })).body
      .result;
    const email = `viewer-${Date.now()}@lab.test`;
    await s.addUser(email, []);
    const db = freshDb();
    const transport = await s.transportFor(email);
    await pullKind(db, transport, 'studies');
    const { deleteEntity } = await import('../../../src/local/outbox');
    await deleteEntity(db, 'studies', study.id);
    expect(await readRow(db, 'studies', study.id)).toBeUndefined();
    expect(await replayOutbox(db, { transport, lock: processLock })).toMatchObject({ failed: 1 });
    const back = await readRow<Study>(db, 'studies', study.id);
    expect(back).toMatchObject({ name: 'keep me' });
    expect(back?.$failed).toBeTruthy();
  });
});

describe('taking back an entry not yet sent', () => {
  it('discards it when no replay is sending it, and waits for one that is: then it was sent', async () => {
    const db = freshDb();
    const annotation = { annotation: { imageId: crypto.randomUUID(), name: 'undone', content: {} } };
    const idle = await enqueue(db, { method: 'POST', path: '/annotations', body: annotation });
    expect(await discardUnsent(db, idle.id, processLock)).toBe(true);
    expect(await db.outbox.count()).toBe(0);

    const sending = await enqueue(db, { method: 'POST', path: '/annotations', body: annotation });
    let answer: (status: number) => void = () => undefined;
    let asked: () => void = () => undefined;
    const requested = new Promise<void>((r) => (asked = r));
    const transport: Transport = async () => {
      asked();
      const status = await new Promise<number>((r) => (answer = r));
      return { status, body: { result: { id: crypto.randomUUID() } } };
    };
    const replay = replayOutbox(db, { transport, lock: processLock, concurrency: 1, batch: 1 });
    await requested;
    let settled: boolean | undefined;
    const takingBack = discardUnsent(db, sending.id, processLock).then((v) => (settled = v));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBeUndefined(); // waits while the POST is on its way
    answer(201);
    await replay;
    await takingBack;
    expect(settled).toBe(false);
    expect(await db.outbox.count()).toBe(0);
  });
});
