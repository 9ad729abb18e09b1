// Sessions: access tokens (JWT, ~15 min) and rotating refresh tokens (7 days). A session is one
// refresh-token family; its access tokens name it (claim `sid`) and stop working once it has ended
// (sign-out, password change or reset), within SESSION_CHECK_CACHE_SECONDS on other server processes.
// A refresh token is "<row id>.<secret>"; only the secret's hash is stored. Presenting a token that was
// already used answers the same pair within REFRESH_REUSE_GRACE_SECONDS (tabs refreshing together);
// later, it ends the session: whoever replayed it (thief or victim) must sign in again.
import crypto from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_REUSE_GRACE_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
  SESSION_CHECK_CACHE_SECONDS,
} from '../../api/constants';
import { AuthResult } from '../../api/auth';
import type { Db } from '../db/client';
import { refreshTokens, sessions } from '../db/schema';
import { apiError } from '../http/errors';
import { randomSecret, sha256 } from '../secrets/random-secrets';

/** Bound on the verified-token memo (one entry per live session token). */
const VERIFIED_TOKENS_KEPT = 10_000;
/** Bound on the session-liveness memo (one entry per session seen lately). */
const SESSIONS_KEPT = 10_000;

export interface AccessClaims {
  userId: string;
  organizationId: string;
  /** The session the token belongs to; tokens without one are refused. */
  sessionId?: string;
}

export type VerifiedClaims = Required<AccessClaims>;

export class Sessions {
  constructor(
    private readonly db: Db,
    private readonly secret: Uint8Array,
  ) {}

  async signAccess(claims: AccessClaims): Promise<{ token: string; expires: Date }> {
    const expires = new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000);
    const payload = { org: claims.organizationId, ...(claims.sessionId ? { sid: claims.sessionId } : {}) };
    const token = await new SignJWT(payload)
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
  private readonly verified = new Map<string, { claims: VerifiedClaims; expiresAtMs: number }>();

  /** Verifies signature, audience and expiry; throws 401 otherwise. The session is checked apart (assertLive). */
  async verifyAccess(token: string): Promise<VerifiedClaims> {
    const known = this.verified.get(token);
    if (known && known.expiresAtMs > Date.now()) return known.claims;
    if (known) this.verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, this.secret, { audience: 'tessera', algorithms: ['HS256'] });
      const { sub, org, sid } = payload;
      if (typeof sub !== 'string' || typeof org !== 'string' || typeof sid !== 'string')
        throw new Error('claims');
      const claims = { userId: sub, organizationId: org, sessionId: sid };
      if (typeof payload.exp === 'number') {
        if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.clear();
        this.verified.set(token, { claims, expiresAtMs: payload.exp * 1000 });
      }
      return claims;
    } catch {
      throw apiError('INVALID_TOKEN');
    }
  }

  /**
   * What this process last learned of each session: ended ones for good, live ones until
   * SESSION_CHECK_CACHE_SECONDS have passed, after which the database is asked again. So a session
   * ended by this process stops at once, and one ended by another process within that bound.
   */
  private readonly liveness = new Map<string, { live: boolean; checkedAtMs: number }>();

  private remember(sessionId: string, live: boolean): void {
    if (this.liveness.size >= SESSIONS_KEPT) this.liveness.clear();
    this.liveness.set(sessionId, { live, checkedAtMs: Date.now() });
  }

  /** Throws 401 unless the session is live (not ended, and known to this server). */
  async assertLive(sessionId: string): Promise<void> {
    const known = this.liveness.get(sessionId);
    let live = known?.live;
    if (
      live === undefined ||
      (live && Date.now() - known!.checkedAtMs >= SESSION_CHECK_CACHE_SECONDS * 1000)
    ) {
      const [row] = await this.db
        .select({ endedAt: sessions.endedAt })
        .from(sessions)
        .where(eq(sessions.id, sessionId));
      live = row !== undefined && row.endedAt === null;
      this.remember(sessionId, live);
    }
    if (!live) throw apiError('INVALID_TOKEN');
  }

  private newRefresh(userId: string, familyId: string) {
    const secret = randomSecret();
    const row = {
      id: crypto.randomUUID(),
      familyId,
      userId,
      secretHash: sha256(secret),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    };
    return { row, token: `${row.id}.${secret}`, expires: row.expiresAt };
  }

  /** A new session (sign-in): a new refresh-token family. */
  async start(claims: AccessClaims): Promise<AuthResult> {
    const sessionId = crypto.randomUUID();
    const access = await this.signAccess({ ...claims, sessionId });
    const refresh = this.newRefresh(claims.userId, sessionId);
    await this.db.transaction(async (tx) => {
      await tx.insert(sessions).values({ id: sessionId, userId: claims.userId });
      await tx.insert(refreshTokens).values(refresh.row);
    });
    this.remember(sessionId, true);
    return toResult(access, refresh);
  }

  /**
   * Exchanges a refresh token for a new pair. The exchange claims the token and stores its successor
   * in one transaction, so of two concurrent uses one exchanges and the other waits, then finds the
   * token used and answers the same pair (replay).
   */
  async rotate(
    token: string,
    claimsFor: (userId: string) => Promise<AccessClaims | undefined>,
  ): Promise<AuthResult> {
    const [id, secret] = token.split('.');
    const invalid = () => apiError('INVALID_REFRESH_TOKEN');
    if (!id || !secret || !/^[0-9a-f-]{36}$/.test(id)) throw invalid();
    const [row] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.id, id));
    if (!row || row.secretHash !== sha256(secret)) throw invalid();
    if (row.revokedAt || row.expiresAt.getTime() < Date.now()) throw invalid();
    if (row.usedAt) return this.replay(row, secret);
    const claims = await claimsFor(row.userId);
    if (!claims) {
      await this.revokeFamily(row.familyId);
      throw invalid();
    }
    const access = await this.signAccess({ ...claims, sessionId: row.familyId });
    const refresh = this.newRefresh(row.userId, row.familyId);
    const result = toResult(access, refresh);
    const claimed = await this.db.transaction(async (tx) => {
      const spent = await tx
        .update(refreshTokens)
        .set({ usedAt: new Date(), successor: seal(secret, result) })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
        .returning({ id: refreshTokens.id });
      if (spent.length === 0) return false;
      await tx.insert(refreshTokens).values(refresh.row);
      return true;
    });
    if (claimed) return result;
    const [now] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.id, id));
    if (!now || now.revokedAt) throw invalid();
    return this.replay(now, secret);
  }

  /**
   * A used token presented again: within the grace window the pair it was exchanged for (unsealed with
   * its own secret); after it, the session ends.
   */
  private async replay(row: typeof refreshTokens.$inferSelect, secret: string): Promise<AuthResult> {
    const usedAtMs = row.usedAt?.getTime() ?? 0;
    if (Date.now() - usedAtMs <= REFRESH_REUSE_GRACE_SECONDS * 1000 && row.successor) {
      const pair = unseal(secret, row.successor);
      if (pair) return pair;
    }
    await this.revokeFamily(row.familyId);
    throw apiError('REFRESH_TOKEN_REUSED');
  }

  /** Ends one session: its access tokens and every refresh token of its family. */
  async revokeFamily(familyId: string): Promise<void> {
    const now = new Date();
    await this.db.transaction(async (tx) => {
      await tx.update(sessions).set({ endedAt: now }).where(eq(sessions.id, familyId));
      await tx.update(refreshTokens).set({ revokedAt: now }).where(eq(refreshTokens.familyId, familyId));
    });
    this.remember(familyId, false);
  }

  /** Sign-out: ends the session of the given refresh token, if it is one of ours. */
  async end(token: string | undefined): Promise<void> {
    const id = token?.split('.')[0];
    if (!id || !/^[0-9a-f-]{36}$/.test(id)) return;
    const [row] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.id, id));
    if (row && row.secretHash === sha256(token!.split('.')[1] ?? '')) await this.revokeFamily(row.familyId);
  }

  /** Ends every session of the user (a password reset), or every other one (a password change). */
  async revokeAllFor(userId: string, exceptSessionId?: string): Promise<void> {
    const now = new Date();
    const mine = eq(sessions.userId, userId);
    const ended = await this.db.transaction(async (tx) => {
      const rows = await tx
        .update(sessions)
        .set({ endedAt: now })
        .where(exceptSessionId ? and(mine, ne(sessions.id, exceptSessionId)) : mine)
        .returning({ id: sessions.id });
      const theirs = eq(refreshTokens.userId, userId);
      await tx
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(exceptSessionId ? and(theirs, ne(refreshTokens.familyId, exceptSessionId)) : theirs);
      return rows;
    });
    for (const { id } of ended) this.remember(id, false);
  }
}

const toResult = (
  access: { token: string; expires: Date },
  refresh: { token: string; expires: Date },
): AuthResult => ({
  accessToken: { token: access.token, expires: access.expires.toISOString() },
  refreshToken: { token: refresh.token, expires: refresh.expires.toISOString() },
});

/**
 * The successor pair, sealed (AES-256-GCM) with a key drawn from the spent token's secret, which only
 * its holder has: what the database keeps gives nobody else the pair.
 */
const sealKey = (secret: string) =>
  Buffer.from(crypto.hkdfSync('sha256', secret, Buffer.alloc(0), 'tessera refresh successor', 32));

function seal(secret: string, pair: AuthResult): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', sealKey(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(pair), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function unseal(secret: string, sealed: string): AuthResult | undefined {
  try {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = crypto.createDecipheriv('aes-256-gcm', sealKey(secret), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    const parsed = AuthResult.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
