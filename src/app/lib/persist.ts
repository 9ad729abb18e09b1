// React Query persistence (issue 4 item 3): the query cache is saved to IndexedDB through src/local
// (the `meta` table; the cache is disposable, so a full disk drops it first) and restored at sign-in.
// The buster is the user's id: one user never sees another's cached answers. What comes back from
// IndexedDB is checked before React Query gets it (STYLE §6).
import {
  persistQueryClient,
  type PersistedClient,
  type Persister,
} from '@tanstack/query-persist-client-core';
import type { QueryClient } from '@tanstack/react-query';
import { deleteValue, getValue, setValue } from '../../local/kv';

/** A week, as long as a sign-in lasts (§9: the auth cookie's 7 days). */
export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const KEY = 'queryCache';
/** Saving serialises the whole cache: at most once a second. */
const SAVE_EVERY_MS = 1000;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The stored client when it has the expected shape, with any malformed query left out. */
export function checkPersisted(value: unknown): PersistedClient | undefined {
  if (!isObject(value) || typeof value.timestamp !== 'number' || typeof value.buster !== 'string')
    return undefined;
  const state = value.clientState;
  if (!isObject(state) || !Array.isArray(state.queries)) return undefined;
  const queries = state.queries.filter(
    (q): q is Record<string, unknown> =>
      isObject(q) && Array.isArray(q.queryKey) && typeof q.queryHash === 'string' && isObject(q.state),
  );
  return {
    timestamp: value.timestamp,
    buster: value.buster,
    clientState: { queries, mutations: [] } as unknown as PersistedClient['clientState'],
  };
}

export function dexiePersister(): Persister {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest: PersistedClient | undefined;
  return {
    persistClient(client) {
      latest = client;
      timer ??= setTimeout(() => {
        timer = undefined;
        // A full disk is not worth an error here: the cache is only a head start.
        if (latest) void setValue(KEY, latest).catch(() => undefined);
      }, SAVE_EVERY_MS);
    },
    restoreClient: async () => checkPersisted(await getValue(KEY).catch(() => undefined)),
    removeClient: () => deleteValue(KEY),
  };
}

/**
 * Restores the user's saved cache and keeps saving it; returns the stop function and a promise
 * settled once the restore is done. Queries can opt out with `meta: { persist: false }`.
 */
export function startPersistence(queryClient: QueryClient, userId: string): [() => void, Promise<void>] {
  return persistQueryClient({
    queryClient,
    persister: dexiePersister(),
    buster: userId,
    maxAge: PERSIST_MAX_AGE_MS,
    dehydrateOptions: {
      shouldDehydrateQuery: (q) => q.state.status === 'success' && q.meta?.persist !== false,
    },
  });
}
