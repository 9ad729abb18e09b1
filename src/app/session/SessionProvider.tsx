// Keeps the session: resumes it from the local store (so the app opens offline), confirms it with
// /auth/me when online, and refreshes tokens 2×20 s before they expire by the server's clock (never
// more than once a minute, one tab refreshing for all: refresh.ts). When the server refuses a refresh
// token that should still be valid, the session ends with the spec's message (§8); when the refresh
// token's life ran out, the user keeps their local data with 'Sign in again to sync' (docs/offline.md).
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { AuthResult, Me } from '../../api/auth';
import { TOKEN_REFRESH_MARGIN_MS } from '../../api/constants';
import { Session } from '../../api/messages';
import type { StoredSession } from '../../local/db';
import { localDb } from '../../local/db';
import { getValue } from '../../local/kv';
import { prepareForUser } from '../../local/read';
import { clearSession, loadSession, saveSession } from '../../local/session';
import { NetworkError } from '../../local/transport';
import { ApiError, api, setRefresher } from '../lib/api';
import { restoreCache } from '../lib/persist';
import { announce, MIN_REFRESH_GAP_MS, msUntilAllowed, onAnnounced, refreshShared } from './refresh';
import { clockOffsetMs, serverNow, setClockOffsetMs } from './server-clock';
import { SessionContext, type SessionApi, type SessionState } from './session-context';
import { takeStartupReads } from './startup-reads';

/** A timer longer than this is set in steps: setTimeout overflows past 2^31 ms, and clocks move. */
const LONGEST_WAIT_MS = 60 * 60_000;

/** The refresh token's life is over by the server's clock (as this device knows it). */
const lapsed = (session: StoredSession) => Date.parse(session.refreshExpires) <= serverNow();

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'resuming' });
  const queryClient = useQueryClient();
  // The session as this tab knows it, and whether it waits for the user to sign in again; refs, so
  // the timer, the HTTP client's 401 path and the other tabs' news all see the latest.
  const known = useRef<StoredSession | undefined>(undefined);
  const needsSignIn = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const session = useMemo(() => {
    const show = (me: Me, signInNeeded: boolean) => {
      needsSignIn.current = signInNeeded;
      setState({ status: 'signedIn', me, offline: !navigator.onLine, signInNeeded });
    };

    const endSession = async (message?: string, fromOtherTab = false) => {
      clearTimeout(timer.current);
      known.current = undefined;
      needsSignIn.current = false;
      if (!fromOtherTab) {
        await clearSession().catch(() => undefined);
        announce(message);
      }
      if (message) notifications.show({ color: 'red', title: 'Session ended', message, autoClose: 5000 });
      setState({ status: 'signedOut', loginError: message });
    };

    /** The refresh token ran out: keep the local data readable, send nothing, offer sign-in. */
    const lapse = () => {
      clearTimeout(timer.current);
      if (known.current) show(known.current.me, true);
    };

    /** Plans the next refresh: its due time by the server's clock, at least a minute after the last. */
    const schedule = (atLeastMs = 0) => {
      clearTimeout(timer.current);
      const current = known.current;
      if (!current || needsSignIn.current) return;
      const due = Date.parse(current.accessExpires) - TOKEN_REFRESH_MARGIN_MS - serverNow();
      const wait = Math.max(due, msUntilAllowed(), atLeastMs, 0);
      timer.current = setTimeout(() => void onTimer(), Math.min(wait, LONGEST_WAIT_MS));
    };

    const onTimer = async () => {
      const current = known.current;
      if (!current) return;
      const due = Date.parse(current.accessExpires) - TOKEN_REFRESH_MARGIN_MS - serverNow();
      if (due > 1000)
        schedule(); // woke early (a long wait set in steps, or the clocks moved)
      else await refresh(current);
    };

    /** Takes a session stored by this tab or another: new expiries, maybe a new user. */
    const take = async (next: StoredSession) => {
      const previous = known.current;
      if (previous?.me.user.id !== next.me.user.id) await enterUser(next.me.user.id);
      // The offset measured with these expiries' answer goes with them (one device, one clock).
      setClockOffsetMs(next.clockOffsetMs);
      known.current = next;
      show(next.me, lapsed(next));
      schedule();
    };

    /** Another user's local data is never shown: the query cache goes, the mirror is cleared. */
    const switchUser = async (userId: string) => {
      const owner = await getValue('mirrorUserId').catch(() => undefined);
      if (owner === userId) return;
      queryClient.clear();
      await prepareForUser(localDb(), userId).catch(() => undefined);
    };

    /** `userId` is signed in from now on: their saved answers are in the cache before pages render. */
    const enterUser = async (userId: string) => {
      await switchUser(userId);
      await restoreCache(queryClient, userId).catch(() => undefined);
    };

    /** The single refresh path (timer, 401, back online). Returns whether new tokens are in place. */
    const refresh = async (current: StoredSession): Promise<boolean> => {
      const outcome = await refreshShared(current).catch(() => ({ kind: 'unreachable' as const }));
      // Signed out meanwhile: nothing to renew. Another session taken meanwhile: only news counts.
      if (!known.current || (known.current !== current && outcome.kind !== 'renewed')) return false;
      switch (outcome.kind) {
        case 'renewed':
          await take(outcome.session);
          return true;
        case 'tooSoon':
          schedule(MIN_REFRESH_GAP_MS);
          return false;
        case 'unreachable':
          schedule(MIN_REFRESH_GAP_MS);
          return false;
        case 'refused':
          if (needsSignIn.current || lapsed(current)) lapse();
          else await endSession(Session.refreshFailed);
          return false;
      }
    };

    /** While signed in again is needed: one attempt, in case the device's clock misled us. */
    const probe = async () => {
      const current = known.current;
      if (!current || !navigator.onLine) return;
      await refresh(current);
    };

    const fetchMe = () => api<Me>('GET', '/auth/me');

    const resume = async (isCancelled: () => boolean) => {
      // The saved answers are read beside the session, and are in the cache before the first page
      // renders: that page paints from this device without waiting for anything else.
      const { session: storedSession, savedCache } = takeStartupReads();
      const stored = await storedSession;
      if (isCancelled()) return;
      if (!stored) {
        setState({ status: 'signedOut' });
        return;
      }
      await restoreCache(queryClient, stored.me.user.id, savedCache).catch(() => undefined);
      if (isCancelled()) return;
      setClockOffsetMs(stored.clockOffsetMs);
      known.current = stored;
      show(stored.me, lapsed(stored));
      if (needsSignIn.current) {
        void probe();
        return;
      }
      try {
        const me = await fetchMe();
        if (isCancelled() || !known.current) return;
        known.current = await saveSession({ ...known.current, me, clockOffsetMs: clockOffsetMs() });
        show(me, needsSignIn.current);
        schedule();
      } catch (error) {
        if (isCancelled()) return;
        if (error instanceof NetworkError) {
          schedule();
        } else if (
          error instanceof ApiError &&
          error.status === 401 &&
          known.current &&
          !needsSignIn.current
        ) {
          // The client's refresh already ran (and ended or lapsed the session if it was refused);
          // a 401 after new tokens means this session is not accepted.
          await endSession(Session.refreshFailed);
        }
      }
    };

    const onOnline = () => {
      const current = known.current;
      if (!current) return;
      if (needsSignIn.current) {
        void probe();
        return;
      }
      if (Date.parse(current.accessExpires) - TOKEN_REFRESH_MARGIN_MS < serverNow()) void refresh(current);
      void fetchMe()
        .then((me) => known.current && show(me, needsSignIn.current))
        .catch(() => undefined);
    };

    /** Another tab changed the stored session: follow it. */
    const onOtherTab = async (message?: string) => {
      const stored = await loadSession().catch(() => undefined);
      if (!stored) {
        if (known.current) await endSession(message, true);
        return;
      }
      const current = known.current;
      if (current?.accessExpires === stored.accessExpires && current.me.user.id === stored.me.user.id) return;
      await take(stored);
    };

    /** The HTTP client's 401 path: refresh unless the session moved on since the request was sent. */
    const refreshFor401 = async (seen: string | undefined): Promise<boolean> => {
      const current = known.current;
      if (!current || needsSignIn.current) return false;
      if (seen !== undefined && seen !== current.accessExpires) return true;
      return refresh(current);
    };

    const adopt = async (result: Pick<AuthResult, 'accessToken' | 'refreshToken'>) => {
      const me = await fetchMe();
      await enterUser(me.user.id);
      const next = await saveSession({
        me,
        accessExpires: result.accessToken.expires,
        refreshExpires: result.refreshToken.expires,
        clockOffsetMs: clockOffsetMs(),
      });
      known.current = next;
      show(me, false);
      schedule();
      announce();
    };

    return { endSession, resume, onOnline, onOtherTab, refreshFor401, adopt, fetchMe, show };
  }, [queryClient]);

  // Resume: the stored session first (instant, offline too), then confirm it with the server.
  useEffect(() => {
    let cancelled = false;
    setRefresher(session.refreshFor401, () => known.current?.accessExpires);
    void session.resume(() => cancelled);
    const offAnnounced = onAnnounced((message) => void session.onOtherTab(message));
    const onOffline = () => setState((s) => (s.status === 'signedIn' ? { ...s, offline: true } : s));
    window.addEventListener('online', session.onOnline);
    window.addEventListener('offline', onOffline);
    return () => {
      cancelled = true;
      setRefresher(undefined);
      clearTimeout(timer.current);
      offAnnounced();
      window.removeEventListener('online', session.onOnline);
      window.removeEventListener('offline', onOffline);
    };
  }, [session]);

  const value = useMemo<SessionApi>(
    () => ({
      state,
      hasAuthCookie: state.status === 'signedIn' && !state.signInNeeded,
      async signIn(email, password, extra) {
        const result = await api<AuthResult>('POST', '/auth/login', {
          body: { email, password, ...extra },
          noRefresh: true,
        });
        await session.adopt(result);
      },
      adopt: session.adopt,
      async signOut() {
        await api('POST', '/auth/logout', { body: {}, noRefresh: true }).catch(() => undefined);
        await session.endSession();
      },
      async reloadMe() {
        const me = await session.fetchMe();
        const current = known.current;
        if (!current) return;
        known.current = await saveSession({ ...current, me });
        session.show(me, needsSignIn.current);
      },
    }),
    [state, session],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
