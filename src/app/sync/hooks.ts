// The hooks pages use: local-first queries (the first answer from the local store, again on every
// local change, revalidated from the server at the §9 interval) and the mutations, which all go
// through the outbox (src/local/outbox.ts).
import { useEffect, useMemo, useState } from 'react';
import {
  keepPreviousData,
  useQuery,
  useQueryClient,
  type QueryClient,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { SyncKind } from '../../api/sync';
import { localDb, type LocalDb } from '../../local/db';
import { getValue } from '../../local/kv';
import {
  createEntity,
  deleteEntity,
  discardEntry,
  enqueue,
  retryEntry,
  updateEntity,
  type EnqueueRequest,
  type SetChanges,
} from '../../local/outbox';
import { lastSyncedAt, observe, outboxSummary, type OutboxSummary } from '../../local/read';
import { discardUnsent } from '../../local/replay';
import { describeEntries } from '../../local/describe';
import type { OutboxEntry } from '../../local/db';
import { requestBackgroundSync } from './browser';
import { useSync } from './context';
import { REFRESH_MS } from './intervals';

/** Local changes reach a page at most this often (the first answer comes at once). */
const RENDER_EVERY_MS = 150;

/** A value read from the local store, re-read whenever what it read changes. */
export function useObserved<T>(read: (db: LocalDb) => Promise<T>, deps: readonly unknown[]): T | undefined {
  const [value, setValue] = useState<T>();
  useEffect(
    () => observe(() => read(localDb()), setValue, undefined, RENDER_EVERY_MS),
    // `read` is a new function on every render; its inputs are the deps the caller lists.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    deps,
  );
  return value;
}

/** The React Query key of a local query (useLocalQuery, primeLocalQuery). */
const localKey = (kind: SyncKind, key: readonly unknown[]) => ['local', kind, ...key];

/** How long a route's navigation waits for primeLocalQuery's read before rendering without it. */
const PRIME_WAIT_MS = 100;

/**
 * Reads a local query's first answer ahead of its page, for a route's loader: the read runs while the
 * router loads the route's code, so the page's first render has its rows. Without it the rows wait for
 * the page's live query, which Dexie starts on a timer after the page has mounted and rendered
 * 'Loading...' (about 40 ms and one render more, measured on the slides tab). Nothing is read when the
 * cache has an answer or the mirror is not the signed-in user's yet (SyncProvider prepares it); the
 * navigation waits for the read at most PRIME_WAIT_MS, the answer still lands when it comes.
 */
export function primeLocalQuery<T>(
  queryClient: QueryClient,
  userId: string | undefined,
  kind: SyncKind,
  key: readonly unknown[],
  read: (db: LocalDb) => Promise<T>,
): Promise<void> {
  const queryKey = localKey(kind, key);
  if (!userId || queryClient.getQueryData(queryKey) !== undefined) return Promise.resolve();
  const db = localDb();
  const primed = Promise.all([getValue('mirrorUserId', db), read(db)])
    .then(([owner, value]) => {
      if (owner === userId && queryClient.getQueryData(queryKey) === undefined)
        // The kind is still pulled at the mount (its own query, see useLocalQuery); the live read follows.
        queryClient.setQueryData(queryKey, value);
    })
    .catch(() => undefined);
  return Promise.race([primed, new Promise<void>((r) => setTimeout(r, PRIME_WAIT_MS))]);
}

/**
 * A query over the local store for one kind: answers from IndexedDB at once (and on every local
 * change, including pending outbox entries), and revalidates by pulling the kind from the server
 * every §9 interval. `key` must identify what `read` returns (page, filters). A list passes
 * `keepPrevious`: while the rows of a new filter or page are read, the last ones stay on screen, so
 * the list is not unmounted between the two (an open card menu stays open, nothing flashes Loading).
 */
export function useLocalQuery<T>(
  kind: SyncKind,
  key: readonly unknown[],
  read: (db: LocalDb) => Promise<T>,
  options: { keepPrevious?: boolean } = {},
): UseQueryResult<T> {
  const { engine } = useSync();
  const queryClient = useQueryClient();
  const queryKey = useMemo(() => localKey(kind, key), [kind, JSON.stringify(key)]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(
    () =>
      observe(
        () => read(localDb()),
        (value) => queryClient.setQueryData(queryKey, value),
        undefined,
        RENDER_EVERY_MS,
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `read` is described by queryKey
    [queryClient, queryKey],
  );
  // The kind is revalidated by a query of its own: React Query reschedules an observer's interval on
  // every update of its query, and the live read above updates the list's query on every local write,
  // which would keep postponing the §9 refresh (docs/offline.md). One poll per kind, however many lists.
  useQuery({
    queryKey: ['pull', kind],
    queryFn: async () => {
      await engine?.pull([kind]);
      return Date.now();
    },
    refetchInterval: REFRESH_MS[kind],
    staleTime: REFRESH_MS[kind],
    networkMode: 'always',
    meta: { persist: false },
  });
  return useQuery({
    queryKey,
    queryFn: () => read(localDb()),
    // The live read keeps the answer current.
    staleTime: Infinity,
    networkMode: 'always',
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
  });
}

/** Every mutation of the app, through the outbox: applied locally at once, sent when possible. */
export function useMutations() {
  const { engine, userId } = useSync();
  return useMemo(() => {
    const db = localDb();
    const sent = <T>(result: T): T => {
      void engine?.kick();
      void requestBackgroundSync().catch(() => undefined);
      return result;
    };
    return {
      create: async (kind: SyncKind, fields: Record<string, unknown>, preview?: Record<string, unknown>) =>
        sent(await createEntity(db, kind, fields, { preview, userId })),
      update: async (kind: SyncKind, id: string, changes: SetChanges) =>
        sent(await updateEntity(db, kind, id, changes, { userId })),
      remove: async (kind: SyncKind, id: string) => sent(await deleteEntity(db, kind, id, { userId })),
      /** Any other mutation (no mirrored row), e.g. a sub-resource call. */
      enqueue: async (request: EnqueueRequest) => sent(await enqueue(db, { userId, ...request })),
      retry: async (entryId: string) => sent(await retryEntry(db, entryId)),
      discard: (entryId: string) => discardEntry(db, entryId),
      /** Discards an entry unless it was sent meanwhile (then false); waits for a replay in progress. */
      discardUnsent: (entryId: string) => discardUnsent(db, entryId),
    };
  }, [engine, userId]);
}

export function useOutbox(): OutboxSummary | undefined {
  return useObserved(outboxSummary, []);
}

/**
 * Each entry's line for a list ('Tag "urgent" on study Kidney 12: A study can have at most 30 tags'),
 * by entry id: the entry's field and value, the names of the rows it mentions from the local store
 * (read again when they change), the server's message for a refused one.
 */
export function useEntryLines(entries: readonly OutboxEntry[]): Map<string, string> | undefined {
  const key = entries.map((e) => `${e.id} ${e.state} ${e.path} ${e.error ?? ''}`).join('\n');
  return useObserved((db) => describeEntries(db, entries), [key]);
}

export function useLastSynced(): string | undefined {
  return useObserved(lastSyncedAt, []);
}

/**
 * Whether a pull of `kind` that started after this page asked has ended: until then a row the page
 * looks for and does not find may be on its way (a link to a study a colleague made a moment ago, or
 * a first visit before the first pull has reached it), so the page says Loading, not 'Results Not
 * Found'. Asks only while the row is missing; offline the pull ends at once and the page says so.
 */
export function usePulledSinceOpen(kind: SyncKind, found: boolean): boolean {
  const { engine } = useSync();
  const [pulled, setPulled] = useState(false);
  useEffect(() => {
    if (found || pulled || !engine) return;
    let live = true;
    void engine
      .pull([kind], true)
      .catch(() => undefined)
      .finally(() => {
        if (live) setPulled(true);
      });
    return () => {
      live = false;
    };
  }, [engine, kind, found, pulled]);
  return pulled;
}
