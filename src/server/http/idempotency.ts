// Idempotency-Key (DESIGN "Write"): the outbox sends each entry's id with its mutation. The key is
// reserved (per user) before the handler runs, so a second send while the first still runs — the
// page and the service worker, or two servers behind a balancer — answers 409 with Retry-After and
// is not applied twice; the first outcome is then stored and a replay gets it back. A key sent again
// with another method, path or body answers 422. Keys are kept a week, then pruned by a periodic job.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { apiError } from './errors';

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
/** How long a key's first outcome is kept: an outbox entry replayed later than this is applied afresh. */
export const IDEMPOTENCY_KEEP_MS = 7 * 24 * 60 * 60_000;
/**
 * A reservation older than this whose request never answered belongs to a process that died: the
 * next send with the key takes it over. Longer than any mutation runs (the slowest, an upload's
 * completion, answers within seconds).
 */
export const IDEMPOTENCY_STALE_MS = 2 * 60_000;
/** Seconds a client is told to wait before asking again while the first request runs. */
const RETRY_AFTER_S = 2;
/** The placeholder status of a reservation (never answered to anyone). */
const RUNNING = '0';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

/** The request as the key promises it: method, path and body. */
function requestHash(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${JSON.stringify(body ?? null)}`)
    .digest('base64url');
}

export function installIdempotency(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (!MUTATING.has(request.method) || typeof key !== 'string' || !request.actor) return;
    if (key.length > 200) throw apiError('IDEMPOTENCY_KEY_TOO_LONG');
    const userId = request.actor.user.id;
    const hash = requestHash(request.method, request.url, request.body);
    const db = app.ctx.db;
    const reserve = () =>
      db
        .insert(idempotencyKeys)
        .values({
          key,
          userId,
          method: request.method,
          path: request.url,
          statusCode: RUNNING,
          requestHash: hash,
        })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
    const mine = and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.userId, userId));
    for (let attempt = 0; attempt < 3; attempt++) {
      if ((await reserve()).length) {
        request.idempotencyKey = key;
        return;
      }
      const [stored] = await db.select().from(idempotencyKeys).where(mine);
      if (!stored) continue; // pruned or released between the two statements: reserve again
      const sameRequest =
        stored.method === request.method &&
        stored.path === request.url &&
        (stored.requestHash === null || stored.requestHash === hash);
      if (!sameRequest) throw apiError('IDEMPOTENCY_KEY_REUSED');
      if (stored.completedAt) {
        reply.header('idempotent-replay', 'true');
        return reply.status(Number(stored.statusCode)).send(stored.body);
      }
      if (Date.now() - stored.createdAt.getTime() < IDEMPOTENCY_STALE_MS) {
        reply.header('retry-after', String(RETRY_AFTER_S));
        throw apiError('IDEMPOTENCY_IN_PROGRESS');
      }
      // Its process died mid-request: take the reservation over, unless another send just did.
      const taken = await db
        .update(idempotencyKeys)
        .set({ createdAt: new Date() })
        .where(
          and(mine, isNull(idempotencyKeys.completedAt), eq(idempotencyKeys.createdAt, stored.createdAt)),
        )
        .returning({ key: idempotencyKeys.key });
      if (taken.length) {
        request.idempotencyKey = key;
        return;
      }
    }
    reply.header('retry-after', String(RETRY_AFTER_S));
    throw apiError('IDEMPOTENCY_IN_PROGRESS');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key || !request.actor || reply.getHeader('idempotent-replay')) return payload;
    request.idempotencyKey = undefined; // once per request, whatever sends after
    const mine = and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.userId, request.actor.user.id));
    // A 5xx may be retried: the reservation is released. Success and client errors are kept.
    if (reply.statusCode >= 500) {
      await app.ctx.db.delete(idempotencyKeys).where(and(mine, isNull(idempotencyKeys.completedAt)));
      return payload;
    }
    let body: unknown = null;
    if (typeof payload === 'string' && payload) {
      try {
        body = JSON.parse(payload);
      } catch {
        body = payload;
      }
    }
    await app.ctx.db
      .update(idempotencyKeys)
      .set({ statusCode: String(reply.statusCode), body, completedAt: new Date() })
      .where(mine);
    return payload;
  });
}

/** The periodic job that prunes keys (src/server/jobs/periodic.ts), and how often it runs. */
export const PRUNE_IDEMPOTENCY_KEYS = 'prune-idempotency-keys';
export const PRUNE_IDEMPOTENCY_EVERY_MS = 60 * 60_000;

/** Forgets keys older than a week (the 'prune-idempotency-keys' job, hourly). Returns how many. */
export async function pruneIdempotencyKeys(db: Db, now = new Date()): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEEP_MS)))
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}
