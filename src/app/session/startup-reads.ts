// The stored session and the saved query cache, read from IndexedDB as soon as the app's code runs
// (main.tsx), while React renders its first frame: SessionProvider's resume, which runs after that
// frame, takes these reads instead of starting its own.
import type { PersistedClient } from '@tanstack/query-persist-client-core';
import type { StoredSession } from '../../local/db';
import { loadSession } from '../../local/session';
import { readSavedCache } from '../lib/persist';

export interface StartupReads {
  session: Promise<StoredSession | undefined>;
  savedCache: Promise<PersistedClient | undefined>;
}

const read = (): StartupReads => ({
  session: loadSession().catch(() => undefined),
  savedCache: readSavedCache(),
});

let started: StartupReads | undefined;

/** Starts both reads (once, at the app's start). */
export function startStartupReads(): void {
  started ??= read();
}

/** The reads started at the app's start, the first time; fresh reads after that (a remount). */
export function takeStartupReads(): StartupReads {
  const reads = started ?? read();
  started = undefined;
  return reads;
}
