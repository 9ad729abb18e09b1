// The rows sign-in keeps of its own: the single-use nonces of Google sign-in and the registration
// requests forwarded to the administrator. Users' passwords are written by users/repository.ts,
// sessions by sessions.ts, e-mailed tokens by action-tokens/tokens.ts.
import crypto from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authNonces, registrationRequests } from '../db/schema';

export async function insertNonce(db: Db, nonce: string, expiresAt: Date): Promise<void> {
  await db.insert(authNonces).values({ nonce, expiresAt });
}

/** Spends the nonce: true when it existed and had not expired (it is gone either way). */
export async function consumeNonce(db: Db, nonce: string): Promise<boolean> {
  const used = await db
    .delete(authNonces)
    .where(and(eq(authNonces.nonce, nonce), gt(authNonces.expiresAt, new Date())))
    .returning();
  return used.length === 1;
}

export async function insertRegistrationRequest(
  db: Db,
  row: Omit<typeof registrationRequests.$inferInsert, 'id'>,
): Promise<void> {
  await db.insert(registrationRequests).values({ id: crypto.randomUUID(), ...row });
}
