// Keeps the session: resumes it from the local store (so the app opens offline), confirms it with
// /auth/me when online, refreshes tokens 2×20 s before they expire, and signs out on a failed refresh
// with the spec's message (§8), clearing the stored credentials.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { notifications } from '@mantine/notifications';
import type { AuthResult, Me } from '../../api/auth';
import { TOKEN_REFRESH_MARGIN_MS } from '../../api/constants';
import { Session } from '../../api/messages';
import { clearSession, loadSession, saveSession } from '../../local/session';
import { ApiError, NetworkError, api, setRefresher } from '../lib/api';
import { SessionContext, type SessionApi, type SessionState } from './session-context';

type Expiries = { accessExpires: string; refreshExpires: string };

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'resuming' });
  const expiries = useRef<Expiries | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const endSession = useCallback(async (message?: string) => {
    clearTimeout(timer.current);
    expiries.current = undefined;
    await clearSession();
    if (message) notifications.show({ color: 'red', title: 'Session ended', message, autoClose: 5000 });
    setState({ status: 'signedOut', loginError: message });
  }, []);

  const store = useCallback(async (me: Me, exp: Expiries) => {
    expiries.current = exp;
    await saveSession({ me, ...exp });
    setState({ status: 'signedIn', me, offline: false });
  }, []);

  /** Returns true when new tokens were obtained; signs out when the server refuses. */
  const refresh = useCallback(async (): Promise<boolean> => {
    try {
      const result = await api<AuthResult>('POST', '/auth/refresh', { body: {}, noRefresh: true });
      const exp = { accessExpires: result.accessToken.expires, refreshExpires: result.refreshToken.expires };
      expiries.current = exp;
      const stored = await loadSession();
      if (stored) await saveSession({ me: stored.me, ...exp });
      schedule();
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) await endSession(Session.refreshFailed);
      else schedule(30_000); // offline or server trouble: try again shortly, keep the session
      return false;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- schedule is stable (declared below via refs)
  }, [endSession]);

  const schedule = useCallback(
    (delayMs?: number) => {
      clearTimeout(timer.current);
      const exp = expiries.current;
      if (!exp) return;
      const due = delayMs ?? Date.parse(exp.accessExpires) - TOKEN_REFRESH_MARGIN_MS - Date.now();
      timer.current = setTimeout(() => void refresh(), Math.max(0, due));
    },
    [refresh],
  );

  const fetchMe = useCallback(() => api<Me>('GET', '/auth/me'), []);

  // Resume: the stored session first (instant, offline too), then confirm it with the server.
  useEffect(() => {
    let cancelled = false;
    setRefresher(refresh);
    (async () => {
      const stored = await loadSession().catch(() => undefined);
      if (cancelled) return;
      if (!stored) {
        setState({ status: 'signedOut' });
        return;
      }
      expiries.current = { accessExpires: stored.accessExpires, refreshExpires: stored.refreshExpires };
      setState({ status: 'signedIn', me: stored.me, offline: !navigator.onLine });
      try {
        const me = await fetchMe();
        if (cancelled) return;
        await saveSession({ me, ...expiries.current });
        setState({ status: 'signedIn', me, offline: false });
        schedule();
      } catch (error) {
        if (cancelled) return;
        if (error instanceof NetworkError) {
          setState({ status: 'signedIn', me: stored.me, offline: true });
          schedule(30_000);
        } else if (error instanceof ApiError && error.status === 401) {
          // api() already tried one refresh; a second 401 means the session is over.
          await endSession(Session.refreshFailed);
        }
      }
    })();
    return () => {
      cancelled = true;
      setRefresher(undefined);
      clearTimeout(timer.current);
    };
  }, [endSession, fetchMe, refresh, schedule]);

  // Back online: confirm the session and refresh if the access token lapsed meanwhile.
  useEffect(() => {
    const onOnline = () => {
      if (!expiries.current) return;
      if (Date.parse(expiries.current.accessExpires) - TOKEN_REFRESH_MARGIN_MS < Date.now()) void refresh();
      void fetchMe()
        .then((me) => setState({ status: 'signedIn', me, offline: false }))
        .catch(() => undefined);
    };
    const onOffline = () => setState((s) => (s.status === 'signedIn' ? { ...s, offline: true } : s));
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    };
  }, [fetchMe, refresh]);

  const adopt = useCallback<SessionApi['adopt']>(
    async (result) => {
      const exp = { accessExpires: result.accessToken.expires, refreshExpires: result.refreshToken.expires };
      expiries.current = exp;
      const me = await fetchMe();
      await store(me, exp);
      schedule();
    },
    [fetchMe, schedule, store],
  );

  const value = useMemo<SessionApi>(
    () => ({
      state,
      hasAuthCookie: state.status === 'signedIn',
      async signIn(email, password, extra) {
        const result = await api<AuthResult>('POST', '/auth/login', {
          body: { email, password, ...extra },
          noRefresh: true,
        });
        await adopt(result);
      },
      adopt,
      async signOut() {
        await api('POST', '/auth/logout', { body: {}, noRefresh: true }).catch(() => undefined);
        await endSession();
      },
      async reloadMe() {
        const me = await fetchMe();
        if (expiries.current) await store(me, expiries.current);
      },
    }),
    [state, adopt, endSession, fetchMe, store],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
