// Verifiers for the optional sign-in helpers: the Turnstile bot check and Google ID tokens.
// Each is active only when its key is configured; their endpoints can be pointed elsewhere for tests.
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';

export interface BotCheck {
  verify(token: string | undefined, ip: string): Promise<boolean>;
}

export function turnstile(
  secret: string,
  url = 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
): BotCheck {
  return {
    async verify(token, ip) {
      if (!token) return false;
      const body = new URLSearchParams({ secret, response: token, remoteip: ip });
      const res = await fetch(url, { method: 'POST', body }).catch(() => undefined);
      if (!res?.ok) return false;
      const json = (await res.json().catch(() => ({}))) as { success?: boolean };
      return json.success === true;
    },
  };
}

export interface GoogleIdentity {
  email: string;
  nonce: string;
}

export interface GoogleVerifier {
  verify(idToken: string): Promise<GoogleIdentity | undefined>;
}

/** Checks the ID token's signature against Google's keys, its audience, issuer and e-mail. */
export function google(
  clientId: string,
  jwksUrl = 'https://www.googleapis.com/oauth2/v3/certs',
): GoogleVerifier {
  const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(jwksUrl));
  return {
    async verify(idToken) {
      try {
        const { payload } = await jwtVerify(idToken, keys, {
          audience: clientId,
          issuer: ['https://accounts.google.com', 'accounts.google.com'],
        });
        if (typeof payload.email !== 'string' || payload.email_verified === false) return undefined;
        if (typeof payload.nonce !== 'string') return undefined;
        return { email: payload.email.toLowerCase(), nonce: payload.nonce };
      } catch {
        return undefined;
      }
    },
  };
}
