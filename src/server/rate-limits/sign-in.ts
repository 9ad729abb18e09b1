// Sign-in attempts counted per account and address, per address and per account (counters.ts), and
// what a successful sign-in or a password reset forgives.
import { eq, sql } from 'drizzle-orm';
import { LOGIN_LIMITS } from '../../api/constants';
import type { Db } from '../db/client';
import { rateCounters } from '../db/schema';
import { apiError } from '../http/errors';
import { hit, normalEmail, refund } from './counters';

/** The per-account sign-in limit from one address (the lockout the owner elsewhere never sees). */
export const MAX_FAILURES_PER_ACCOUNT = LOGIN_LIMITS.perAccountAddress.max;

const loginKeys = (email: string, ip: string) => ({
  pair: `login:pair:${normalEmail(email)}:${ip}`,
  address: `login:ip:${ip}`,
  account: `login:acct:${normalEmail(email)}`,
});

/**
 * Counts a sign-in attempt before its password is checked; throws the lockout answer (429) when the
 * account from this address, the address, or the account from everywhere is over its limit. In that
 * order, and each only once the one before has let the attempt through, so guesses refused at one
 * level do not use up the next (the owner's address, their account's ceiling).
 */
export async function reserveLoginAttempt(db: Db, email: string, ip: string): Promise<void> {
  const k = loginKeys(email, ip);
  if (!(await hit(db, k.pair, LOGIN_LIMITS.perAccountAddress))) throw apiError('TOO_MANY_SIGN_INS');
  if (!(await hit(db, k.address, LOGIN_LIMITS.perAddress))) throw apiError('TOO_MANY_SIGN_INS');
  if (!(await hit(db, k.account, LOGIN_LIMITS.perAccount))) throw apiError('TOO_MANY_SIGN_INS');
}

/** A sign-in succeeded: its own attempt was no failure, and the owner's earlier typos here are forgiven. */
export async function loginSucceeded(db: Db, email: string, ip: string): Promise<void> {
  const k = loginKeys(email, ip);
  await db.delete(rateCounters).where(eq(rateCounters.key, k.pair));
  await refund(db, k.address);
  await refund(db, k.account);
}

/**
 * A password reset proves the mailbox: the account's sign-in counts (from everywhere, and from each
 * address) start again, so guesses spread over many addresses cannot keep its owner out.
 */
export async function clearLoginLimits(db: Db, email: string): Promise<void> {
  const account = normalEmail(email);
  await db
    .delete(rateCounters)
    .where(
      sql`${rateCounters.key} = ${`login:acct:${account}`} OR starts_with(${rateCounters.key}, ${`login:pair:${account}:`})`,
    );
}
