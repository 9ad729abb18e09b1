// The one way tokens are refreshed, shared by every tab: the refresh runs under the Web Lock
// `tessera-refresh`, and inside it the stored session is read again — if another tab refreshed
// meanwhile, its new expiries are adopted instead of spending the (single-use, rotated) refresh token
// a second time, which the server takes as theft. The tokens are httpOnly cookies the tabs already
// share; what a refresh tells the other tabs (BroadcastChannel) is that the stored session changed.
import type { AuthResult } from '../../api/auth';
import { defaultLock } from '../../local/locks';
import { loadSession, saveSession } from '../../local/session';
import type { StoredSession } from '../../local/db';
import { ApiError, api } from '../lib/api';
import { clockOffsetMs } from './server-clock';

/** Never more than one refresh a minute from this device, whatever its clock or the server's says. */
export const MIN_REFRESH_GAP_MS = 60_000;
const LOCK = 'tessera-refresh';
const CHANNEL = 'tessera-session';

export type RefreshOutcome =
  /** New tokens, from this tab or from another one (then `session` is what that tab stored). */
  | { kind: 'renewed'; session: StoredSession }
  /** The server refused the refresh token (401). */
  | { kind: 'refused' }
  /** No answer (offline) or a server error: try again later. */
  | { kind: 'unreachable' }
  /** This device refreshed less than a minute ago. */
  | { kind: 'tooSoon' };

/** When this tab last asked the server, on the monotonic clock (device clock changes do not move it). */
let lastAttempt = Number.NEGATIVE_INFINITY;

/** How long until this tab may ask the server again. */
export function msUntilAllowed(): number {
  return Math.max(0, lastAttempt + MIN_REFRESH_GAP_MS - performance.now());
}

/**
 * Refreshes unless another tab already did since this tab's `known` session (whose access expiry
 * it knew when it decided to refresh). The stored session gets the new expiries.
 */
export function refreshShared(known: StoredSession): Promise<RefreshOutcome> {
  return defaultLock()(LOCK, async () => {
    const stored = await loadSession().catch(() => undefined);
    if (stored && stored.accessExpires !== known.accessExpires) return { kind: 'renewed', session: stored };
    const otherTabAgo = stored?.refreshedAt ? Date.now() - Date.parse(stored.refreshedAt) : Infinity;
    if (msUntilAllowed() > 0 || (otherTabAgo >= 0 && otherTabAgo < MIN_REFRESH_GAP_MS))
      return { kind: 'tooSoon' };
    lastAttempt = performance.now();
    let result: AuthResult;
    try {
      result = await api<AuthResult>('POST', '/auth/refresh', { body: {}, noRefresh: true });
    } catch (error) {
      return error instanceof ApiError && error.status === 401
        ? { kind: 'refused' }
        : { kind: 'unreachable' };
    }
    const next = {
      me: (stored ?? known).me,
      accessExpires: result.accessToken.expires,
      refreshExpires: result.refreshToken.expires,
      clockOffsetMs: clockOffsetMs(),
      refreshedAt: new Date().toISOString(),
    };
    // A full disk must not lose the new expiries for this tab: the cookies hold the tokens anyway.
    const session = await saveSession(next).catch((): StoredSession => ({
      key: 'current',
      ...next,
      savedAt: next.refreshedAt,
    }));
    announce();
    return { kind: 'renewed', session };
  });
}

const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(CHANNEL);

/** Tells the other tabs that the stored session changed (refreshed, signed in, lapsed or ended). */
export function announce(message?: string): void {
  channel?.postMessage({ type: 'session-changed', message });
}

/** Calls `fn` when another tab announced a change; returns the unsubscribe function. */
export function onAnnounced(fn: (message?: string) => void): () => void {
  if (!channel) return () => undefined;
  const listener = (event: MessageEvent<{ type?: unknown; message?: unknown }>) => {
    if (event.data?.type === 'session-changed')
      fn(typeof event.data.message === 'string' ? event.data.message : undefined);
  };
  channel.addEventListener('message', listener);
  return () => channel.removeEventListener('message', listener);
}
