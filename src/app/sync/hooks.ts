// The hooks pages use: local-first queries (the first answer from the local store, again on every
// local change, revalidated from the server at the §9 interval) and the mutations, which all go
// through the outbox (src/local/outbox.ts).
import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { SyncKind } from '../../api/sync';
import { localDb, type LocalDb } from '../../local/db';
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

/**
 * A query over the local store for one kind: answers from IndexedDB at once (and on every local
 * change, including pending outbox entries), and revalidates by pulling the kind from the server
 * every §9 interval. `key` must identify what `read` returns (page, filters).
 */
export function useLocalQuery<T>(
  kind: SyncKind,
  key: readonly unknown[],
  read: (db: LocalDb) => Promise<T>,
): UseQueryResult<T> {
  const { engine } = useSync();
  const queryClient = useQueryClient();
  const queryKey = useMemo(() => ['local', kind, ...key], [kind, JSON.stringify(key)]); // eslint-disable-line react-hooks/exhaustive-deps
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
  return useQuery({
    queryKey,
    queryFn: async () => {
      await engine?.pull([kind]);
      return read(localDb());
    },
    refetchInterval: REFRESH_MS[kind],
    staleTime: REFRESH_MS[kind],
    networkMode: 'always',
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
    };
  }, [engine, userId]);
}

export function useOutbox(): OutboxSummary | undefined {
  return useObserved(outboxSummary, []);
}

export function useLastSynced(): string | undefined {
  return useObserved(lastSyncedAt, []);
}
