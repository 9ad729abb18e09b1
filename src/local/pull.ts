// The pull side: for each kind, ask GET /v2/sync/:kind for what changed since its
// cursor, page by page, and store each page together with the new cursor in one transaction, so a
// page closed mid-pull resumes from the last stored page: no gap, no duplicate. Every few minutes the
// readable ids are compared with the mirror, to drop rows the user lost access to.
import { extractMessage } from '../api/messages';
import { SYNC_KINDS, SYNC_PAGE_MAX, SyncIds, SyncPage, type SyncKind } from '../api/sync';
import type { LocalDb, SyncCursor } from './db';
import { kindSpec } from './kinds';
import { applyServerChanges, dropUnreadable, missingIds } from './mirror';
import type { LockRunner } from './locks';
import { NetworkError, type Transport } from './transport';

export type PullOutcome =
  | { kind: SyncKind; status: 'done'; pages: number; rows: number; deleted: number }
  /** The server does not serve this kind yet (400 '<kind> cannot be synced yet'): try again later. */
  | { kind: SyncKind; status: 'unsupported' }
  | { kind: SyncKind; status: 'offline' | 'unauthorized' | 'error'; message: string };

export interface PullOptions {
  /** Rows per page; default the server's maximum (fewer round trips for a first sync). */
  limit?: number;
  /** Called after each stored page (progress, tests that interrupt a pull). */
  onPage?: (kind: SyncKind, page: SyncPage) => void | Promise<void>;
  /** Serialises pulls of one kind across tabs (they would only fetch the same pages twice). */
  lock?: LockRunner;
}

const UNSUPPORTED = /cannot be synced yet$/;

async function request(transport: Transport, path: string) {
  try {
    return await transport({ method: 'GET', path });
  } catch (error) {
    if (error instanceof NetworkError) return { status: 0, body: { message: error.message } };
    throw error;
  }
}

/**
 * Pulls one kind until the server has nothing more; each page is stored with its cursor. The next
 * page is asked for while the current one is being stored (the server and IndexedDB work at once).
 */
export async function pullKind(
  db: LocalDb,
  transport: Transport,
  kind: SyncKind,
  opts: PullOptions = {},
): Promise<PullOutcome> {
  const spec = kindSpec(kind);
  const limit = String(opts.limit ?? SYNC_PAGE_MAX);
  const fetchPage = (cursor: string) => {
    const qs = new URLSearchParams({ limit });
    if (cursor) qs.set('cursor', cursor);
    const answer = request(transport, `/sync/${kind}?${qs}`);
    answer.catch(() => undefined); // awaited below; a prefetch we drop must not go unhandled
    return answer;
  };
  const from = (c: SyncCursor | undefined) => (c?.resync ? '' : (c?.cursor ?? ''));
  let pages = 0;
  let rows = 0;
  let deleted = 0;
  let expected = await db.cursors.get(kind);
  let next = fetchPage(from(expected));
  for (;;) {
    const res = await next;
    const message = extractMessage(res.body);
    if (res.status === 0) return { kind, status: 'offline', message };
    if (res.status === 401) return { kind, status: 'unauthorized', message };
    if (res.status === 400 && UNSUPPORTED.test(message)) return { kind, status: 'unsupported' };
    if (res.status !== 200) return { kind, status: 'error', message };
    const parsed = SyncPage.safeParse(res.body);
    if (!parsed.success) return { kind, status: 'error', message: `bad sync page for ${kind}` };
    const page = parsed.data;
    if (page.hasMore) next = fetchPage(page.cursor);
    const entities = page.result.filter(
      (r): r is Record<string, unknown> & { id: string } => typeof r.id === 'string',
    );
    // A page with nothing in it (the usual revalidation) only moves the cursor: a transaction on the
    // cursors alone, which does not hold up the lists reading the kind's table meanwhile.
    const empty = entities.length === 0 && page.deletedIds.length === 0;
    const scope = empty ? [db.cursors] : [db.mirror(spec.table), db.outbox, db.cursors];
    const stored = await db.transaction('rw', scope, async () => {
      // Another tab (or the service worker) may have stored a page meanwhile: start over from its cursor.
      const now = await db.cursors.get(kind);
      if (from(now) !== from(expected)) return { ok: false as const, now };
      if (!empty) await applyServerChanges(db, kind, entities, page.deletedIds);
      const cursor: SyncCursor = {
        ...now,
        kind,
        cursor: page.cursor,
        resync: false,
        syncedAt: page.hasMore ? now?.syncedAt : new Date().toISOString(),
      };
      await db.cursors.put(cursor);
      return { ok: true as const, now: cursor };
    });
    expected = stored.now;
    if (!stored.ok) {
      next = fetchPage(from(expected));
      continue;
    }
    pages++;
    rows += entities.length;
    deleted += page.deletedIds.length;
    await opts.onPage?.(kind, page);
    if (!page.hasMore) return { kind, status: 'done', pages, rows, deleted };
  }
}

/** How often the readable ids are compared with the mirror (they are a full list: not every pull). */
export const RECONCILE_EVERY_MS = 5 * 60_000;

/**
 * Drops rows the user can no longer read, and fetches rows that became readable without changing
 * (a full pull of the kind when, after one more pull, some are still missing).
 */
export async function reconcileKind(
  db: LocalDb,
  transport: Transport,
  kind: SyncKind,
  opts: PullOptions = {},
): Promise<PullOutcome> {
  const res = await request(transport, `/sync/${kind}/ids`);
  const message = extractMessage(res.body);
  if (res.status === 0) return { kind, status: 'offline', message };
  if (res.status === 401) return { kind, status: 'unauthorized', message };
  if (res.status === 400 && UNSUPPORTED.test(message)) return { kind, status: 'unsupported' };
  const parsed = SyncIds.safeParse(res.body);
  if (res.status !== 200 || !parsed.success) return { kind, status: 'error', message };
  const ids = parsed.data.ids;
  const spec = kindSpec(kind);
  const dropped = await db.transaction('rw', [db.mirror(spec.table), db.outbox], () =>
    dropUnreadable(db, kind, new Set(ids)),
  );
  // Rows created after our last pull show up as missing too: one more pull settles those.
  if ((await missingIds(db, kind, ids)).length) {
    const again = await pullKind(db, transport, kind, opts);
    if (again.status !== 'done') return again;
    if ((await missingIds(db, kind, ids)).length) {
      await db.cursors.update(kind, { resync: true });
      const full = await pullKind(db, transport, kind, opts);
      if (full.status !== 'done') return full;
    }
  }
  await db.meta.put({ key: `reconciledAt:${kind}`, value: Date.now() });
  return { kind, status: 'done', pages: 0, rows: 0, deleted: dropped };
}

/** Whether a kind's readable ids are due for comparison. */
export async function reconcileDue(db: LocalDb, kind: SyncKind, now = Date.now()): Promise<boolean> {
  const last = (await db.meta.get(`reconciledAt:${kind}`))?.value;
  return typeof last !== 'number' || now - last >= RECONCILE_EVERY_MS || last > now;
}

/** Kinds pulled at once: one kind's requests wait for the server while another's page is stored. */
export const PULL_CONCURRENCY = 4;

/**
 * Pulls the given kinds (all by default), up to PULL_CONCURRENCY at once, then reconciles those that
 * are due. After an offline or unauthorized answer no further kind is started (the rest would fail the
 * same way); unsupported kinds are skipped. Outcomes come in the order of `kinds`, up to the first
 * offline or unauthorized one.
 */
export async function pullAll(
  db: LocalDb,
  transport: Transport,
  kinds: readonly SyncKind[] = SYNC_KINDS,
  opts: PullOptions & {
    reconcile?: boolean;
    /** Asked before each kind: true stops the pull there (the engine stopped, e.g. at sign-out). */
    halted?: () => boolean;
  } = {},
): Promise<PullOutcome[]> {
  const lock: LockRunner = opts.lock ?? ((_name, fn) => fn());
  const pullOne = (kind: SyncKind) =>
    lock(`tessera-pull-${kind}`, async (): Promise<PullOutcome> => {
      // A first pull (no cursor yet) fetches every readable row into an empty mirror: nothing to compare.
      const first = !(await db.cursors.get(kind));
      const pulled = await pullKind(db, transport, kind, opts);
      if (pulled.status === 'done' && first && opts.reconcile === undefined) {
        await db.meta.put({ key: `reconciledAt:${kind}`, value: Date.now() });
        return pulled;
      }
      if (pulled.status !== 'done' || !(opts.reconcile ?? (await reconcileDue(db, kind)))) return pulled;
      const rec = await reconcileKind(db, transport, kind, opts);
      return rec.status !== 'done' ? rec : { ...pulled, deleted: pulled.deleted + rec.deleted };
    });
  const results: Array<PullOutcome | undefined> = kinds.map(() => undefined);
  let nextIndex = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && !opts.halted?.() && nextIndex < kinds.length) {
      const i = nextIndex++;
      const outcome = await pullOne(kinds[i]);
      results[i] = outcome;
      if (outcome.status === 'offline' || outcome.status === 'unauthorized') stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PULL_CONCURRENCY, kinds.length) }, worker));
  const cut = results.findIndex((o) => !o || o.status === 'offline' || o.status === 'unauthorized');
  const outcomes = (cut < 0 ? results : results.slice(0, cut + (results[cut] ? 1 : 0))).filter(
    (o): o is PullOutcome => !!o,
  );
  if (
    outcomes.length === kinds.length &&
    outcomes.every((o) => o.status === 'done' || o.status === 'unsupported')
  )
    await db.meta.put({ key: 'lastSyncedAt', value: new Date().toISOString() });
  return outcomes;
}
