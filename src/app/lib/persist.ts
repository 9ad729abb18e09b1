// React Query persistence: the query cache is saved to IndexedDB through src/local (the `meta` table;
// the cache is disposable, so a full disk drops it first) and restored when the user is known (the
// session resumed from the device, or a sign-in), before the signed-in pages first render.
// The buster is the user's id: one user never sees another's cached answers. What comes back from
// IndexedDB is checked before React Query gets it (STYLE §6).
import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
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

/** Reads the saved cache (any user's): started beside the session's read, so both take one wait. */
export function readSavedCache(): Promise<PersistedClient | undefined> {
  return Promise.resolve(dexiePersister().restoreClient()).catch(() => undefined);
}

/**
 * Puts the user's saved answers into the query cache (nothing when they are another user's or older
 * than PERSIST_MAX_AGE_MS). Done before the first signed-in render, so a page's first paint shows what
 * it showed last, from this device, whatever the network does. `saved`: the cache already being read.
 */
export function restoreCache(
  queryClient: QueryClient,
  userId: string,
  saved: Promise<PersistedClient | undefined> = readSavedCache(),
): Promise<void> {
  return persistQueryClientRestore({
    queryClient,
    persister: { ...dexiePersister(), restoreClient: () => saved },
    buster: userId,
    maxAge: PERSIST_MAX_AGE_MS,
  });
}

/**
 * Keeps saving the cache for `userId` (at most once a second); returns the stop function. Queries opt
 * out with `meta: { persist: false }`.
 */
export function keepPersisting(queryClient: QueryClient, userId: string): () => void {
  return persistQueryClientSubscribe({
    queryClient,
    persister: dexiePersister(),
    buster: userId,
    dehydrateOptions: {
      shouldDehydrateQuery: (q) => q.state.status === 'success' && q.meta?.persist !== false,
    },
  });
}
