// The sync engine as React sees it: the running engine (absent while signed out) and its status.
import { createContext, useContext } from 'react';
import type { EngineStatus, SyncEngine } from '../../local/engine';

export interface SyncContextValue {
  engine?: SyncEngine;
  status: EngineStatus;
  /** The signed-in user whose changes are queued (tags outbox entries). */
  userId?: string;
}

export const idleStatus: EngineStatus = {
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  signInNeeded: false,
  storageFull: false,
  replaying: false,
  pulling: false,
};

export const SyncContext = createContext<SyncContextValue>({ status: idleStatus });

export function useSync(): SyncContextValue {
  return useContext(SyncContext);
}
