// Google sign-in, shown only when the server has a client id. The nonce is fetched from the server,
// renewed every 90 s and when the window regains focus (§9), and checked by the server in the ID token.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import type { AuthResult } from '../../api/auth';
import { GOOGLE_NONCE_REFRESH_MS } from '../../api/constants';
import { extractMessage } from '../../api/messages';
import { api } from '../lib/api';
import { useSession } from '../session/session-context';

interface GoogleId {
  accounts: {
    id: {
      initialize(opts: {
        client_id: string;
        nonce: string;
        callback: (r: { credential: string }) => void;
      }): void;
      prompt(): void;
    };
  };
}
declare global {
  interface Window {
    google?: GoogleId;
  }
}

export function GoogleSignIn({ clientId, onError }: { clientId: string; onError: (m: string) => void }) {
  const session = useSession();
  const navigate = useNavigate();
  const nonce = useRef<string | undefined>(undefined);
  const [ready, setReady] = useState(false);

  const renewNonce = useCallback(async () => {
    try {
      nonce.current = (
        await api<{ nonce: string }>('POST', '/auth/google-login-init', { noRefresh: true })
      ).nonce;
    } catch {
      nonce.current = undefined;
    }
  }, []);

  useEffect(() => {
    void renewNonce();
    const every = setInterval(() => void renewNonce(), GOOGLE_NONCE_REFRESH_MS);
    const onFocus = () => void renewNonce();
    window.addEventListener('focus', onFocus);
    const script = document.createElement('script');
    script.src = 'https://accounts.google.com/gsi/client';
    script.async = true;
    script.onload = () => setReady(true);
    document.head.appendChild(script);
    return () => {
      clearInterval(every);
      window.removeEventListener('focus', onFocus);
      script.remove();
    };
  }, [renewNonce]);

  const start = () => {
    const g = window.google;
    if (!g || !nonce.current) return onError('Google sign-in is not reachable right now');
    const used = nonce.current;
    g.accounts.id.initialize({
      client_id: clientId,
      nonce: used,
      callback: async ({ credential }) => {
        try {
          const result = await api<AuthResult>('POST', '/auth/google-login', {
            body: { token: credential, nonce: used },
            noRefresh: true,
          });
          await session.adopt(result);
          await navigate({ to: '/dashboard' });
        } catch (e) {
          onError(extractMessage(e));
        }
      },
    });
    g.accounts.id.prompt();
  };

  return (
    <Button variant="default" fullWidth onClick={start} disabled={!ready}>
      Sign in with Google
    </Button>
  );
}
