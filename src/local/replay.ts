// Sending the outbox, the same code in the page and the service worker: one sender
// at a time across tabs and the worker (Web Lock 'tessera-outbox'); entries issued in creation order
// (a few requests in flight at once, never two entries for one row: runOnce; consecutive entries in
// one POST /v2/sync/batch), each with its id as Idempotency-Key so a resend after a lost answer is not
// applied twice. Each entry of a batch gets its own answer, recorded as below.
//   2xx      → the entry leaves the outbox; the server's copy becomes the row's base.
//   401      → stop: wait for sign-in (the page kicks the replay again after it).
//   other 4xx→ the entry is kept as failed with the server's message; its change is rolled back;
//              later entries go on.
//   408, 429, 5xx → kept, retried after a backoff; later entries for other rows go on.
//   network  → stop, retried on the next trigger (online, timer, Background Sync).
import { isIdempotencyInProgress } from '../api/idempotency';
import { extractMessage } from '../api/messages';
import type { SyncKind } from '../api/sync';
import { SYNC_BATCH_MAX } from '../api/sync-batch';
import { refsOf, type LocalDb, type OutboxEntry } from './db';
import { applyEffect, effectOf, parseTarget, targetKey, type Row } from './effects';
import { kindSpec } from './kinds';
import { defaultLock, type LockRunner } from './locks';
import { baseOf, newerCopy, rebuildTarget } from './mirror';
import { DAMAGED_ENTRY, discardEntry, listEntries, mirrorTablesOf } from './outbox';
import { recordOverwrites } from './overwrites';
import { movedKey } from './read';
import {
  NetworkError,
  sendBatch,
  type BatchedRequest,
  type Transport,
  type TransportResponse,
} from './transport';

export const OUTBOX_LOCK = 'tessera-outbox';
/** The Background Sync tag the page registers and the service worker answers. */
export const OUTBOX_SYNC_TAG = 'tessera-outbox';
/**
 * What the service worker tells its pages after its replay sent something: what was sent may have
 * changed other rows on the server (an order list places its orders), which the page's own replay,
 * finding the outbox empty, would not pull.
 */
export const OUTBOX_SENT_MESSAGE = 'tessera-outbox-sent';

export interface ReplayOptions {
  transport: Transport;
  /** Only this user's entries (and entries without a user) are sent. */
  userId?: string;
  lock?: LockRunner;
  now?: () => number;
  /** Entries in flight at once (default REPLAY_WINDOW); 1 sends strictly one after the other. */
  concurrency?: number;
  /**
   * Entries per request at most (default REPLAY_BATCH, at most SYNC_BATCH_MAX): several go in one
   * POST /v2/sync/batch; 1 sends each entry to its own route.
   */
  batch?: number;
  /** Called after each entry is settled (sent, failed or deferred). */
  onEntry?: (entry: OutboxEntry, outcome: EntryOutcome) => void;
}

export type EntryOutcome = 'sent' | 'failed' | 'deferred' | 'unauthorized' | 'offline';

export interface ReplayResult {
  sent: number;
  failed: number;
  /** Why the run ended before the outbox was empty of sendable entries. */
  stopped?: 'offline' | 'unauthorized';
  /** Epoch ms of the earliest deferred entry: when to run again. */
  retryAt?: number;
}

/** Backoff after a transient failure: 2 s, 4 s, 8 s… capped at 5 minutes, with ±20 % jitter. */
export function backoffMs(attempts: number, random = Math.random): number {
  const base = Math.min(2_000 * 2 ** Math.max(0, attempts - 1), 5 * 60_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}

const isTransient = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * Takes back an entry not yet sent (an undone shape's create): waits for a replay in progress, in any
 * tab or the service worker, to end, then discards the entry if it is still in the outbox. False when
 * it had been sent meanwhile: the change is on the server, and taking it back is a new change.
 */
export async function discardUnsent(
  db: LocalDb,
  id: string,
  lock: LockRunner = defaultLock(),
): Promise<boolean> {
  return lock(OUTBOX_LOCK, async () => {
    if (!(await db.outbox.get(id))) return false;
    await discardEntry(db, id);
    return true;
  });
}

/** Sends every sendable entry once, in order. Safe to call from any number of places at once. */
export async function replayOutbox(db: LocalDb, opts: ReplayOptions): Promise<ReplayResult> {
  const lock = opts.lock ?? defaultLock();
  return lock(OUTBOX_LOCK, () => runOnce(db, opts));
}

/** Requests in flight at once by default: overlaps round trips, never two for one row (see runOnce). */
export const REPLAY_WINDOW = 4;

/**
 * Entries per request by default: consecutive entries that may be in flight together go in one
 * POST /v2/sync/batch (the server answers each as its own route would), so a long queue costs a few
 * round trips instead of one per entry.
 */
export const REPLAY_BATCH = 50;
/** A batch's JSON at most (the server takes 2 MiB per request). */
const BATCH_BYTES_MAX = 512 * 1024;

/**
 * Answered entries whose outcome is not stored yet, at most, besides those in flight: the next
 * requests go out while earlier answers wait to be written (IndexedDB queues a write behind the page's
 * reads of the same tables, and a list page re-reads its table after every write).
 */
const UNSETTLED_MAX = 64;

/**
 * Issues entries in creation order, up to `concurrency` requests at a time, holding an entry back
 * while an earlier one for the same row is unsettled (gathered or sent, its outcome not stored yet),
 * while a create it mentions (by temporary id) is unsettled, and, for a mutation of no mirrored row,
 * until everything before it has settled. So each row's changes reach the server in order and an id
 * is rewritten before anything uses it. Entries free of such hazards are gathered into one batch
 * request (`batch`); the answers are stored in batches too (`batchStore`).
 */
async function runOnce(db: LocalDb, opts: ReplayOptions): Promise<ReplayResult> {
  const result = await issueAll(db, opts);
  if (result.sent > 0)
    await db.meta.put({ key: 'lastSyncedAt', value: new Date((opts.now ?? Date.now)()).toISOString() });
  return result;
}

async function issueAll(db: LocalDb, opts: ReplayOptions): Promise<ReplayResult> {
  const now = opts.now ?? Date.now;
  const width = Math.max(1, opts.concurrency ?? REPLAY_WINDOW);
  const batchMax = Math.max(1, Math.min(opts.batch ?? REPLAY_BATCH, SYNC_BATCH_MAX));
  const result: ReplayResult = { sent: 0, failed: 0 };
  /** Rows with an entry waiting for its backoff: their later entries must wait too (order per row). */
  const blocked = new Set<string>();
  const seen = new Set<string>();
  /** Gathered or sent, outcome not stored yet: what `hazard` looks at. */
  const unsettled = new Map<string, OutboxEntry>();
  /** Gathered for the next request. */
  let gathered: OutboxEntry[] = [];
  let gatheredBytes = 0;
  /** Requests without an answer yet: what the window counts. */
  let asking = 0;
  /** An error that is not an answer (a full disk, a bug): the run ends with it once nothing is out. */
  let fatal: { error: unknown } | undefined;
  const hooks: GroupHooks = {
    store: batchStore(db),
    onRemap: (from) => remapped.add(from),
    batching: { on: batchMax > 1 },
  };
  /** Temporary ids that got their server id during this run: entries naming them are read again. */
  const remapped = new Set<string>();

  // The loop waits for `changed()`; every answer and every settled entry wakes it to look again.
  let wake = () => {};
  const changed = () => new Promise<void>((resolve) => (wake = resolve));
  const ended = () => Boolean(result.stopped || fatal);

  const hazard = (entry: OutboxEntry, text: string): boolean => {
    if (!entry.target) return unsettled.size > 0;
    for (const other of unsettled.values()) {
      if (!other.target || other.target === entry.target) return true;
      const created = other.method === 'POST' ? parseTarget(other.target)?.id : undefined;
      if (created && text.includes(created)) return true;
    }
    return false;
  };
  const canAsk = () => asking < width;
  const crowded = () => unsettled.size >= width * batchMax + UNSETTLED_MAX;
  const mustWait = (entry: OutboxEntry, text: string) =>
    hazard(entry, text) || crowded() || (gathered.length >= batchMax && !canAsk());

  const tally = async (entry: OutboxEntry, outcome: EntryOutcome) => {
    opts.onEntry?.(entry, outcome);
    if (outcome === 'sent') result.sent++;
    else if (outcome === 'failed') result.failed++;
    else if (outcome === 'deferred') {
      if (entry.target) blocked.add(entry.target);
      const stored = await db.outbox.get(entry.id);
      if (stored?.nextAttemptAt) result.retryAt = Math.min(result.retryAt ?? Infinity, stored.nextAttemptAt);
    } else result.stopped ??= outcome;
  };

  /** Sends what was gathered as one request (a batch, or the entry's own route when alone). */
  const ask = () => {
    const group = gathered;
    gathered = [];
    gatheredBytes = 0;
    asking++;
    let answered = false;
    const onAnswer = () => {
      if (answered) return;
      answered = true;
      asking--;
      wake();
    };
    void (async () => {
      try {
        const outcomes = await sendGroup(db, group, opts.transport, now, { ...hooks, onAnswer });
        for (const [i, entry] of group.entries()) await tally(entry, outcomes[i]);
      } catch (error) {
        fatal ??= { error };
      } finally {
        if (!answered) asking--;
        for (const entry of group) unsettled.delete(entry.id);
        wake();
      }
    })();
  };

  // Passes over the outbox until one finds nothing new (entries may be added while we send).
  for (;;) {
    let progressed = false;
    for (const listed of await listEntries(db)) {
      if (ended()) break;
      if (seen.has(listed.id)) continue;
      if (listed.state !== 'pending' || listed.error === DAMAGED_ENTRY) continue;
      if (listed.userId && opts.userId && listed.userId !== opts.userId) continue;
      const text = `${listed.path} ${listed.body === undefined ? '' : JSON.stringify(listed.body)}`;
      // What was gathered goes out before waiting: the wait may be for those very entries.
      while (!ended() && mustWait(listed, text)) {
        if (gathered.length && canAsk()) ask();
        else await changed();
      }
      if (ended()) break;
      seen.add(listed.id);
      // An answer in this run may have rewritten its path and body: then read it again. (Nothing else
      // changes a pending entry but sending it; only failed entries can be discarded.)
      const stale = (listed.refs ?? refsOf(listed)).some((id) => remapped.has(id));
      const entry = stale ? await db.outbox.get(listed.id) : listed;
      if (!entry || entry.state !== 'pending') continue;
      if (entry.target && blocked.has(entry.target)) continue;
      progressed = true;
      if (entry.nextAttemptAt && entry.nextAttemptAt > now()) {
        if (entry.target) blocked.add(entry.target);
        result.retryAt = Math.min(result.retryAt ?? Infinity, entry.nextAttemptAt);
        continue;
      }
      gathered.push(entry);
      gatheredBytes += text.length;
      unsettled.set(entry.id, entry);
      if ((gathered.length >= batchMax || gatheredBytes >= BATCH_BYTES_MAX) && canAsk()) ask();
    }
    while (gathered.length && !ended()) {
      if (canAsk()) ask();
      else await changed();
    }
    // Gathered but never sent (the run ended): they stay queued as they are.
    for (const entry of gathered) unsettled.delete(entry.id);
    gathered = [];
    while (unsettled.size) await changed();
    if (fatal) throw fatal.error;
    if (result.stopped || !progressed) return result;
  }
}

interface GroupHooks {
  store: BatchStore;
  /** A create's temporary id was replaced by the server's. */
  onRemap(temporaryId: string): void;
  /** Entries may go in one batch request; turned off for the run when the server has no batch call. */
  batching: { on: boolean };
}

interface SendHooks extends GroupHooks {
  /**
   * The answer does not end the run (2xx, refused, deferred): the next request may go while this one
   * is stored. A 401 or a network failure frees the window only once the run is marked stopped.
   */
  onAnswer(): void;
}

const requestOf = (entry: OutboxEntry): BatchedRequest => ({
  key: entry.id,
  method: entry.method,
  path: entry.path,
  body: entry.body,
});

/**
 * Sends a group of gathered entries, in one batch request when there are several, and records each
 * one's outcome. Without a batch answer (an older server, a batch refused as a whole) the entries go
 * one by one in order, each to its own route, under the same keys: a batch the server partly applied
 * is answered from the stored outcomes.
 */
async function sendGroup(
  db: LocalDb,
  group: readonly OutboxEntry[],
  transport: Transport,
  now: () => number,
  hooks: SendHooks,
): Promise<EntryOutcome[]> {
  if (group.length > 1 && hooks.batching.on) {
    let answers: Awaited<ReturnType<typeof sendBatch>>;
    try {
      answers = await sendBatch(transport, group.map(requestOf));
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      return Promise.all(group.map((entry) => recordOffline(db, entry, error)));
    }
    if (answers === 'no-batch-call') hooks.batching.on = false;
    else if (answers !== 'alone') {
      const all = answers;
      return Promise.all(group.map((entry, i) => recordAnswer(db, entry, all[i], now, hooks)));
    }
  }
  const outcomes: EntryOutcome[] = [];
  for (const entry of group) {
    const stop = outcomes.find((o) => o === 'offline' || o === 'unauthorized');
    outcomes.push(stop ?? (await sendEntry(db, entry, transport, now, hooks)));
  }
  return outcomes;
}

async function recordOffline(db: LocalDb, entry: OutboxEntry, error: NetworkError): Promise<EntryOutcome> {
  await db.outbox.update(entry.id, { attempts: entry.attempts + 1, status: 0, error: error.message });
  return 'offline';
}

/** Sends one entry to its own route and records its outcome. */
async function sendEntry(
  db: LocalDb,
  entry: OutboxEntry,
  transport: Transport,
  now: () => number,
  hooks: SendHooks,
): Promise<EntryOutcome> {
  let answer: TransportResponse;
  try {
    answer = await transport({
      method: entry.method,
      path: entry.path,
      body: entry.body,
      headers: { 'Idempotency-Key': entry.id },
    });
  } catch (error) {
    if (!(error instanceof NetworkError)) throw error;
    return recordOffline(db, entry, error);
  }
  return recordAnswer(db, entry, answer, now, hooks);
}

/** Records the server's answer to one entry (alone or in a batch). */
async function recordAnswer(
  db: LocalDb,
  entry: OutboxEntry,
  { status, body }: TransportResponse,
  now: () => number,
  hooks: SendHooks,
): Promise<EntryOutcome> {
  if (status >= 200 && status < 300) {
    hooks.onAnswer();
    const remapped = await hooks.store.settle({ entry, ok: true, body });
    if (remapped) hooks.onRemap(remapped);
    return 'sent';
  }
  const message = extractMessage(body);
  if (status === 401) {
    await db.outbox.update(entry.id, { status, error: message });
    return 'unauthorized';
  }
  // The same entry still running on the server (sent by the page and the worker at once): ask again.
  if (isTransient(status) || isIdempotencyInProgress(status, body)) {
    hooks.onAnswer();
    const attempts = entry.attempts + 1;
    await db.outbox.update(entry.id, {
      attempts,
      status,
      error: message,
      nextAttemptAt: now() + backoffMs(attempts),
    });
    return 'deferred';
  }
  hooks.onAnswer();
  await hooks.store.settle({ entry, ok: false, status, message });
  return 'failed';
}

/** An answer to store: accepted (2xx, with the server's body) or refused (a 4xx but 401). */
type Settlement =
  | { entry: OutboxEntry; ok: true; body: unknown }
  | { entry: OutboxEntry; ok: false; status: number; message: string };

interface BatchStore {
  /** Resolves once stored, with the temporary id the entry's create replaced, if any. */
  settle(item: Settlement): Promise<string | undefined>;
}

/** Answers stored per transaction, at most. */
const SETTLE_BATCH_MAX = 100;

/**
 * Stores answers in batches: one transaction over the outbox and the mirror for every answer that
 * arrived while the previous transaction ran (or waited for the page's reads), in creation order.
 * Each answer is stored exactly as alone (entries in one batch never share a row or an id: see
 * `hazard`); a transaction that fails fails every answer in it, and the entries stay to be resent
 * under the same keys.
 */
function batchStore(db: LocalDb): BatchStore {
  const queue: Array<{
    item: Settlement;
    resolve: (remapped: string | undefined) => void;
    reject: (error: unknown) => void;
  }> = [];
  let running = false;
  const drain = async () => {
    running = true;
    try {
      while (queue.length) {
        const batch = queue.splice(0, SETTLE_BATCH_MAX).sort((a, b) => a.item.entry.seq - b.item.entry.seq);
        try {
          const out = await db.transaction('rw', [db.outbox, db.meta, ...mirrorTablesOf(db)], async () => {
            const remaps: Array<string | undefined> = [];
            for (const { item } of batch)
              remaps.push(
                item.ok
                  ? await settleSuccess(db, item.entry, item.body)
                  : await settleRefusal(db, item.entry, item.status, item.message),
              );
            return remaps;
          });
          batch.forEach((b, i) => b.resolve(out[i]));
        } catch (error) {
          for (const b of batch) b.reject(error);
        }
      }
    } finally {
      running = false;
    }
  };
  return {
    settle: (item) =>
      new Promise((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!running) void drain();
      }),
  };
}

/** A refused entry is kept as failed with the server's message; its change is rolled back. */
async function settleRefusal(
  db: LocalDb,
  entry: OutboxEntry,
  status: number,
  message: string,
): Promise<undefined> {
  const current = await db.outbox.get(entry.id);
  if (!current) return undefined;
  await db.outbox.put({
    ...current,
    state: 'failed',
    attempts: current.attempts + 1,
    status,
    error: message,
  });
  const target = parseTarget(current.target);
  if (target) await rebuildTarget(db, target.spec.kind, target.id);
  return undefined;
}

const isEntity = (v: unknown): v is Row =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string';

/**
 * The entry left the outbox: the answer becomes the row's base; a temporary id becomes the server's.
 * Returns the temporary id when there was one. Runs inside the caller's transaction (the outbox, meta
 * and every mirror table).
 */
async function settleSuccess(db: LocalDb, entry: OutboxEntry, body: unknown): Promise<string | undefined> {
  const effect = effectOf(entry);
  const answered = (body as { result?: unknown } | undefined)?.result;
  await db.outbox.delete(entry.id);
  if (!effect) return undefined;
  const kind = effect.spec.kind;
  const table = db.mirror(kindSpec(kind).table);
  let remapped: string | undefined;
  let id = effect.id;
  if (effect.op === 'create' && isEntity(answered) && answered.id !== effect.id) {
    await remapId(db, kind, effect.id, answered.id);
    // A page opened on the temporary id (a link clicked just before) finds the row by it still.
    await db.meta.put({ key: movedKey(kind, effect.id), value: answered.id });
    remapped = effect.id;
    id = answered.id;
  }
  const current = baseOf(await table.get(id));
  let base: Record<string, unknown> | null;
  if (effect.op === 'delete') base = null;
  else if (isEntity(answered)) base = newerCopy(current, answered);
  // No entity in the answer: assume the server did what was asked, until the next pull says more.
  else base = applyEffect((current as Row | null) ?? undefined, effect, entry.preview) ?? null;
  await rebuildTarget(db, kind, id, base);
  // The server may say the change replaced a newer value: the user is told (overwrites.ts).
  if (effect.op === 'update') await recordOverwrites(db, entry, kind, id, body);
  return remapped;
}

/**
 * A row created here under a temporary id got its server id: later entries' targets, paths and
 * bodies are rewritten, the row moves, and the other rows whose entries mention the id are rebuilt.
 */
async function remapId(db: LocalDb, kind: SyncKind, from: string, to: string): Promise<void> {
  const swap = (text: string) => text.split(from).join(to);
  const touched = new Set<string>();
  const byTarget = await db.outbox.where('target').equals(targetKey(kind, from)).toArray();
  const byRef = await db.outbox.where('refs').equals(from.toLowerCase()).toArray();
  const entries = new Map([...byTarget, ...byRef].map((e) => [e.id, e]));
  for (const entry of entries.values()) {
    const body = entry.body === undefined ? undefined : JSON.stringify(entry.body);
    const next: OutboxEntry = {
      ...entry,
      target: entry.target === targetKey(kind, from) ? targetKey(kind, to) : entry.target,
      path: swap(entry.path),
      body: body === undefined ? undefined : JSON.parse(swap(body)),
    };
    next.refs = refsOf(next);
    await db.outbox.put(next);
    if (entry.target) touched.add(entry.target);
  }
  await db.mirror(kindSpec(kind).table).delete(from);
  for (const target of touched) {
    const t = parseTarget(target);
    if (t && target !== targetKey(kind, from)) await rebuildTarget(db, t.spec.kind, t.id);
  }
}
