// Sign-in rate limiting per account and per address, kept in the database so that every server
// process sees the same counts. Only failures count; a success clears the account's failures.
import crypto from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { AuthText } from '../../api/messages';
import type { Db } from '../db/client';
import { loginFailures } from '../db/schema';
import { tooMany } from '../http/errors';

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

const keys = (email: string, ip: string) => ({ account: `email:${email}`, address: `ip:${ip}` });

async function failuresSince(db: Db, key: string, since: Date): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginFailures)
    .where(and(eq(loginFailures.key, key), gt(loginFailures.at, since)));
  return Number(n);
}

export async function assertLoginAllowed(db: Db, email: string, ip: string): Promise<void> {
  const since = new Date(Date.now() - LOGIN_WINDOW_MS);
  const k = keys(email, ip);
  const [account, address] = await Promise.all([
    failuresSince(db, k.account, since),
    failuresSince(db, k.address, since),
  ]);
  if (account >= MAX_FAILURES_PER_ACCOUNT || address >= MAX_FAILURES_PER_ADDRESS)
    throw tooMany(AuthText.tooManyAttempts);
}

export async function recordLoginFailure(db: Db, email: string, ip: string): Promise<void> {
  const k = keys(email, ip);
  await db.insert(loginFailures).values([
    { id: crypto.randomUUID(), key: k.account },
    { id: crypto.randomUUID(), key: k.address },
  ]);
  // Keep the table small: forget failures older than the window.
  await db.delete(loginFailures).where(lt(loginFailures.at, new Date(Date.now() - LOGIN_WINDOW_MS)));
}

export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, `email:${email}`));
}
