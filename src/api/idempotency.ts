// Idempotency-Key answers both sides read: the server's refusals of a repeated key, and the code by
// which the outbox knows a 409 means "the first send is still running, ask again", not a conflict.
// Their texts are entries of the catalogue (./errors.ts).
import type { ErrorCode } from './errors';

/** The error code of a repeated key whose first request has not answered yet (409, Retry-After). */
export const IDEMPOTENCY_IN_PROGRESS = 'IDEMPOTENCY_IN_PROGRESS' satisfies ErrorCode;
/** The error code of a key sent again with another method, path or body (422). */
export const IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED' satisfies ErrorCode;

/** Whether an answer says the same key is still being handled elsewhere (then retry, do not settle). */
export function isIdempotencyInProgress(status: number, body: unknown): boolean {
  return (
    status === 409 &&
    typeof body === 'object' &&
    body !== null &&
    (body as { code?: unknown }).code === IDEMPOTENCY_IN_PROGRESS
  );
}
