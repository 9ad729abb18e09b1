// Rate limits held in the database (rate_counters), so every server process counts against the same
// number: sign-in attempts per account and address, per address and per account, and the calls that
// send e-mail. Each hit is one UPSERT … RETURNING count, so concurrent calls cannot all read the same
// old count: an attempt is counted before it is checked, and only those within the limit go on.
import { eq, sql } from 'drizzle-orm';
import { LOGIN_LIMITS, MAIL_LIMITS } from '../../api/constants';
import { AuthText, LimitText } from '../../api/messages';
import type { Db } from '../db/client';
import { rateCounters } from '../db/schema';
import { tooMany } from '../http/errors';

export interface Limit {
  max: number;
  windowSeconds: number;
}

/** The per-account sign-in limit from one address (the lockout the owner elsewhere never sees). */
export const MAX_FAILURES_PER_ACCOUNT = LOGIN_LIMITS.perAccountAddress.max;

/** Counters whose window ended this long ago are deleted now and then (the longest window is a day). */
const PRUNE_AFTER_SECONDS = 2 * 24 * 60 * 60;
/** One hit in this many also prunes, so the table stays small without a job of its own. */
const PRUNE_EVERY = 200;

/**
 * Counts one call against `key` and says whether it is within `limit`. A fixed window: the first hit
 * after the window has passed starts a new one at 1.
 */
export async function hit(db: Db, key: string, limit: Limit): Promise<boolean> {
  const expired = sql`${rateCounters.windowStart} <= now() - make_interval(secs => ${limit.windowSeconds})`;
  const [row] = await db
    .insert(rateCounters)
    .values({ key, windowStart: sql`now()`, count: 1 })
    .onConflictDoUpdate({
      target: rateCounters.key,
      set: {
        windowStart: sql`CASE WHEN ${expired} THEN now() ELSE ${rateCounters.windowStart} END`,
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateCounters.count} + 1 END`,
      },
    })
    .returning({ count: rateCounters.count });
  if (Math.floor(Math.random() * PRUNE_EVERY) === 0)
    await db
      .delete(rateCounters)
      .where(sql`${rateCounters.windowStart} < now() - make_interval(secs => ${PRUNE_AFTER_SECONDS})`);
  return (row?.count ?? 1) <= limit.max;
}

/** Gives back one counted call (a sign-in that succeeded is not a failure). */
async function refund(db: Db, key: string): Promise<void> {
  await db
    .update(rateCounters)
    .set({ count: sql`greatest(${rateCounters.count} - 1, 0)` })
    .where(eq(rateCounters.key, key));
}

const normal = (email: string) => email.trim().toLowerCase();

const loginKeys = (email: string, ip: string) => ({
  pair: `login:pair:${normal(email)}:${ip}`,
  address: `login:ip:${ip}`,
  account: `login:acct:${normal(email)}`,
});

/**
 * Counts a sign-in attempt before its password is checked; throws the lockout answer (429) when the
 * account from this address, the address, or the account from everywhere is over its limit. In that
 * order, and each only once the one before has let the attempt through, so guesses refused at one
 * level do not use up the next (the owner's address, their account's ceiling).
 */
export async function reserveLoginAttempt(db: Db, email: string, ip: string): Promise<void> {
  const k = loginKeys(email, ip);
  if (!(await hit(db, k.pair, LOGIN_LIMITS.perAccountAddress))) throw tooMany(AuthText.tooManyAttempts);
  if (!(await hit(db, k.address, LOGIN_LIMITS.perAddress))) throw tooMany(AuthText.tooManyAttempts);
  if (!(await hit(db, k.account, LOGIN_LIMITS.perAccount))) throw tooMany(AuthText.tooManyAttempts);
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
  const account = normal(email);
  await db
    .delete(rateCounters)
    .where(
      sql`${rateCounters.key} = ${`login:acct:${account}`} OR starts_with(${rateCounters.key}, ${`login:pair:${account}:`})`,
    );
}

export type MailKind = 'forgot-password' | 'register-request' | 'invitation' | 'bug-report';

/**
 * Counts a call that sends e-mail against its address and against `account` (the account the mail is
 * about: the address a reset goes to, the e-mail asking to register, the invited user, the reporter);
 * throws 429 when either is over MAIL_LIMITS. The account is counted whether or not it exists, so
 * the answer tells nothing about which accounts do.
 */
export async function assertMailAllowed(db: Db, kind: MailKind, account: string, ip: string): Promise<void> {
  if (!(await hit(db, `mail:${kind}:ip:${ip}`, MAIL_LIMITS.perAddress)))
    throw tooMany(LimitText.tooManyMails);
  if (!(await hit(db, `mail:${kind}:acct:${normal(account)}`, MAIL_LIMITS.perAccount)))
    throw tooMany(LimitText.tooManyMails);
}
