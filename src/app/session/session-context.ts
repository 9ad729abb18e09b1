// The session as the app sees it (spec §3 "Session context"): who is signed in, and the calls that change it.
import { createContext, useContext } from 'react';
import type { Me } from '../../api/auth';

export type SessionState =
  | { status: 'resuming' }
  | { status: 'signedOut'; loginError?: string }
  /**
   * `signInNeeded`: the refresh token lapsed; the user still reads and changes their local data, and
   * nothing is sent or pulled until they sign in again (docs/offline.md).
   */
  | { status: 'signedIn'; me: Me; offline: boolean; signInNeeded: boolean };

export interface SessionApi {
  state: SessionState;
  /** True once a sign-in cookie was set in this browser (spec: hasAuthCookie). */
  hasAuthCookie: boolean;
  signIn(
    email: string,
    password: string,
    extra?: { cloudflareToken?: string; nonceVal?: string },
  ): Promise<void>;
  /** Adopts an Auth result obtained elsewhere (activation, Google sign-in). */
  adopt(result: { accessToken: { expires: string }; refreshToken: { expires: string } }): Promise<void>;
  signOut(): Promise<void>;
  reloadMe(): Promise<void>;
}

export const SessionContext = createContext<SessionApi | null>(null);

export function useSession(): SessionApi {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}

/** The signed-in user's details; only for pages under the signed-in layout. */
export function useMe(): Me {
  const { state } = useSession();
  if (state.status !== 'signedIn') throw new Error('useMe needs a signed-in session');
  return state.me;
}
