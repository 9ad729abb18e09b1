// Runs the sync engine while someone is signed in: prepares the local store for that user, keeps
// saving the query cache, starts pulling and replaying, asks for persistent storage, and stops it
// all at sign-out. While the user must sign in again (their refresh token lapsed) the local store is
// read and changed as usual but no engine runs: nothing is pulled or sent. Children read it with useSync().
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { localDb } from '../../local/db';
import { SyncEngine, type EngineStatus } from '../../local/engine';
import { defaultLock } from '../../local/locks';
import { checkOutbox, prepareForUser } from '../../local/read';
import { keepPersisting } from '../lib/persist';
import { useSession } from '../session/session-context';
import { requestBackgroundSync, requestPersistentStorage } from './browser';
import { idleStatus, SyncContext, type SyncContextValue } from './context';
import { pageTransport } from './transport';

export function SyncProvider({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const queryClient = useQueryClient();
  const userId = state.status === 'signedIn' ? state.me.user.id : undefined;
  const paused = state.status === 'signedIn' && state.signInNeeded;
  const [engine, setEngine] = useState<SyncEngine>();
  const [status, setStatus] = useState<EngineStatus>(idleStatus);

  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    let running: SyncEngine | undefined;
    let stopPersisting: (() => void) | undefined;
    void (async () => {
      const db = localDb();
      await prepareForUser(db, userId).catch(() => undefined);
      await checkOutbox(db).catch(() => undefined);
      if (cancelled) return;
      // The saved cache came back when the session named the user (SessionProvider).
      stopPersisting = keepPersisting(queryClient, userId);
      if (paused) return;
      running = new SyncEngine({
        db,
        transport: pageTransport,
        userId,
        lock: defaultLock(),
        window,
        document,
        serviceWorker: 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
        onStatus: setStatus,
        requestBackgroundSync,
      });
      setStatus(running.current);
      setEngine(running);
      running.start();
      void requestPersistentStorage();
    })();
    return () => {
      cancelled = true;
      running?.stop();
      stopPersisting?.();
      setEngine(undefined);
    };
  }, [userId, paused, queryClient]);

  const value = useMemo<SyncContextValue>(
    () => ({ engine, status: paused ? { ...status, signInNeeded: true } : status, userId }),
    [engine, status, userId, paused],
  );
  return <SyncContext.Provider value={value}>{children}</SyncContext.Provider>;
}
