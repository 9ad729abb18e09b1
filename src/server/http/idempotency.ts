// Idempotency-Key (DESIGN "Write"): the outbox sends each entry's id with its mutation; the first
// outcome is stored per key and user, and a replay gets that outcome back instead of applying twice.
// Keys are kept a week, then pruned by a periodic job.
import type { FastifyInstance } from 'fastify';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { badRequest } from './errors';

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
/** How long a key's first outcome is kept: an outbox entry replayed later than this is applied afresh. */
export const IDEMPOTENCY_KEEP_MS = 7 * 24 * 60 * 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

export function installIdempotency(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (!MUTATING.has(request.method) || typeof key !== 'string' || !request.actor) return;
    if (key.length > 200) throw badRequest('Idempotency-Key is at most 200 characters');
    const [stored] = await app.ctx.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.userId, request.actor.user.id)));
    if (stored) {
      if (stored.method !== request.method || stored.path !== request.url)
        throw badRequest('This Idempotency-Key was already used for another request');
      reply.header('idempotent-replay', 'true');
      return reply.status(Number(stored.statusCode)).send(stored.body);
    }
    request.idempotencyKey = key;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    // Only outcomes worth repeating are kept: success and client errors. A 5xx may be retried.
    if (!key || !request.actor || reply.statusCode >= 500 || reply.getHeader('idempotent-replay'))
      return payload;
    let body: unknown = null;
    if (typeof payload === 'string' && payload) {
      try {
        body = JSON.parse(payload);
      } catch {
        body = payload;
      }
    }
    await app.ctx.db
      .insert(idempotencyKeys)
      .values({
        key,
        userId: request.actor.user.id,
        method: request.method,
        path: request.url,
        statusCode: String(reply.statusCode),
        body,
      })
      .onConflictDoNothing();
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
