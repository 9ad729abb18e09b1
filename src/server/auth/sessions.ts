// Access tokens (JWT, ~15 min) and rotating refresh tokens (7 days). A refresh token is
// "<row id>.<secret>"; only the secret's hash is stored. Presenting a token that was already used
// revokes its whole family: whoever replayed it (thief or victim) must sign in again.
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '../../api/constants';
import { AuthText } from '../../api/messages';
import type { AuthResult } from '../../api/auth';
import type { Db } from '../db/client';
import { refreshTokens } from '../db/schema';
import { unauthorized } from '../http/errors';
import { randomSecret, sha256 } from './passwords';

/** Bound on the verified-token memo (one entry per live session token). */
const VERIFIED_TOKENS_KEPT = 10_000;

export interface AccessClaims {
  userId: string;
  organizationId: string;
}

export class Sessions {
  constructor(
    private readonly db: Db,
    private readonly secret: Uint8Array,
  ) {}

  async signAccess(claims: AccessClaims): Promise<{ token: string; expires: Date }> {
    const expires = new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000);
    const token = await new SignJWT({ org: claims.organizationId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expires.getTime() / 1000))
      .setAudience('tessera')
      .sign(this.secret);
    return { token, expires };
  }

  /**
   * Tokens already verified, until they expire: a token's validity depends only on its bytes, the
   * secret and the clock, so this saves the HMAC on every request of a session (bench/README.md).
   */
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();

  /** Verifies signature, audience and expiry; throws 401 otherwise. */
  async verifyAccess(token: string): Promise<AccessClaims> {
    const known = this.verified.get(token);
    if (known && known.expiresAtMs > Date.now()) return known.claims;
    if (known) this.verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, this.secret, { audience: 'tessera', algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.org !== 'string') throw new Error('claims');
      const claims = { userId: payload.sub, organizationId: payload.org };
      if (typeof payload.exp === 'number') {
        if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.clear();
        this.verified.set(token, { claims, expiresAtMs: payload.exp * 1000 });
      }
      return claims;
    } catch {
      throw unauthorized(AuthText.invalidToken, 'INVALID_TOKEN');
    }
  }

  private async issueRefresh(userId: string, familyId: string): Promise<{ token: string; expires: Date }> {
    const id = crypto.randomUUID();
    const secret = randomSecret();
    const expires = new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000);
    await this.db
      .insert(refreshTokens)
      .values({ id, familyId, userId, secretHash: sha256(secret), expiresAt: expires });
    return { token: `${id}.${secret}`, expires };
  }

  /** A new session (sign-in): a new refresh-token family. */
  async start(claims: AccessClaims): Promise<AuthResult> {
    const access = await this.signAccess(claims);
    const refresh = await this.issueRefresh(claims.userId, crypto.randomUUID());
    return toResult(access, refresh);
  }

  /** Exchanges a refresh token for a new pair; reuse of a spent token revokes its family. */
  async rotate(
    token: string,
    claimsFor: (userId: string) => Promise<AccessClaims | undefined>,
  ): Promise<AuthResult> {
    const [id, secret] = token.split('.');
    const invalid = () => unauthorized(AuthText.invalidToken, 'INVALID_REFRESH_TOKEN');
    if (!id || !secret || !/^[0-9a-f-]{36}$/.test(id)) throw invalid();
    const [row] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.id, id));
    if (!row || row.secretHash !== sha256(secret)) throw invalid();
    if (row.revokedAt || row.expiresAt.getTime() < Date.now()) throw invalid();
    // Claim the token atomically so two concurrent refreshes cannot both succeed.
    const claimed = await this.db
      .update(refreshTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
      .returning({ id: refreshTokens.id });
    if (claimed.length === 0) {
      await this.revokeFamily(row.familyId);
      throw unauthorized(AuthText.refreshReused, 'REFRESH_TOKEN_REUSED');
    }
    const claims = await claimsFor(row.userId);
    if (!claims) {
      await this.revokeFamily(row.familyId);
      throw invalid();
    }
    const access = await this.signAccess(claims);
    const refresh = await this.issueRefresh(row.userId, row.familyId);
    return toResult(access, refresh);
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(eq(refreshTokens.familyId, familyId));
  }

  /** Sign-out: revokes the family of the given refresh token, if it is one of ours. */
  async end(token: string | undefined): Promise<void> {
    const id = token?.split('.')[0];
    if (!id || !/^[0-9a-f-]{36}$/.test(id)) return;
    const [row] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.id, id));
    if (row && row.secretHash === sha256(token!.split('.')[1] ?? '')) await this.revokeFamily(row.familyId);
  }

  async revokeAllFor(userId: string): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(eq(refreshTokens.userId, userId));
  }
}

const toResult = (
  access: { token: string; expires: Date },
  refresh: { token: string; expires: Date },
): AuthResult => ({
  accessToken: { token: access.token, expires: access.expires.toISOString() },
  refreshToken: { token: refresh.token, expires: refresh.expires.toISOString() },
});
