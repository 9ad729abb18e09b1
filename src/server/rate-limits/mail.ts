// The calls that send e-mail (forgot password, register request, invitation, bug report), counted per
// address and per account against MAIL_LIMITS (counters.ts).
import { MAIL_LIMITS } from '../../api/constants';
import type { Db } from '../db/client';
import { apiError } from '../http/errors';
import { hit, normalEmail } from './counters';

export type MailKind = 'forgot-password' | 'register-request' | 'invitation' | 'bug-report';

/**
 * Counts a call that sends e-mail against its address and against `account` (the account the mail is
 * about: the address a reset goes to, the e-mail asking to register, the invited user, the reporter);
 * throws 429 when either is over MAIL_LIMITS. The account is counted whether or not it exists, so
 * the answer tells nothing about which accounts do.
 */
export async function assertMailAllowed(db: Db, kind: MailKind, account: string, ip: string): Promise<void> {
  if (!(await hit(db, `mail:${kind}:ip:${ip}`, MAIL_LIMITS.perAddress))) throw apiError('TOO_MANY_MAILS');
  if (!(await hit(db, `mail:${kind}:acct:${normalEmail(account)}`, MAIL_LIMITS.perAccount)))
    throw apiError('TOO_MANY_MAILS');
}
