// Single-use e-mailed tokens (password reset, account activation): only their hash is stored, and
// spending one is a single conditional update, so a token works once even under concurrent use. Only
// the newest link of a purpose works: making one deletes the user's unspent older ones. Password
// reset and activation (auth/routes.ts) and invitations (users/invite.ts) both make them; the link a
// token travels in is links.ts.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { actionTokens, users } from '../db/schema';
import { randomSecret, sha256 } from '../secrets/random-secrets';

export type TokenPurpose = 'reset' | 'activate';

export const RESET_TTL_MS = 60 * 60_000;
export const ACTIVATION_TTL_MS = 7 * 24 * 60 * 60_000;

export async function createActionToken(
  db: Db,
  userId: string,
  purpose: TokenPurpose,
  ttlMs: number,
): Promise<string> {
  const token = randomSecret();
  await db.transaction(async (tx) => {
    // The user's row lock orders concurrent requests, so exactly one newest link survives.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    await dropActionTokens(tx, userId, purpose);
    await tx.insert(actionTokens).values({
      tokenHash: sha256(token),
      purpose,
      userId,
      expiresAt: new Date(Date.now() + ttlMs),
    });
  });
  return token;
}

/** Makes the user's unspent links of `purpose` stop working (a newer one, a changed password). */
export async function dropActionTokens(db: Db, userId: string, purpose: TokenPurpose): Promise<void> {
  await db
    .delete(actionTokens)
    .where(
      and(eq(actionTokens.userId, userId), eq(actionTokens.purpose, purpose), isNull(actionTokens.usedAt)),
    );
}

/** Spends the token and returns its user id, or undefined when unknown, spent or expired. */
export async function spendActionToken(
  db: Db,
  token: string,
  purpose: TokenPurpose,
): Promise<string | undefined> {
  const [row] = await db
    .update(actionTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(actionTokens.tokenHash, sha256(token)),
        eq(actionTokens.purpose, purpose),
        isNull(actionTokens.usedAt),
        gt(actionTokens.expiresAt, new Date()),
      ),
    )
    .returning();
  return row?.userId;
}
