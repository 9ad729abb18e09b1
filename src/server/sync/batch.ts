// POST /v2/sync/batch: the outbox's replay sends many entries in one round trip. Each entry is
// dispatched, in order, through the real route it names (app.inject with the caller's credentials and
// the entry's id as Idempotency-Key): the same validation, permission checks, messages and stored
// outcome as the single call, and a 4xx on one entry is only that entry's answer.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SyncBatchBody,
  SyncBatchResult,
  type SyncBatchAnswer,
  type SyncBatchEntry,
} from '../../api/sync-batch';
import { apiErrorBody } from '../http/errors';

/**
 * Calls a batch may not carry: sign-in and tokens (their cookies would be lost), the sync calls (no
 * batch inside a batch) and uploads (tus sends bytes and headers, not JSON).
 */
const NOT_BATCHABLE = /^\/(auth|sync|uploads|upload-groups)(\/|\?|$)/;
/** Headers that make the entry the caller's own request: credentials and language. */
const FORWARDED = ['authorization', 'cookie', 'user-agent', 'accept-language'] as const;

/** The entry's path when it names a /v2 call a batch may make; dot segments could leave /v2. */
function batchablePath(path: string): boolean {
  const pathname = path.split('?')[0];
  if (NOT_BATCHABLE.test(pathname) || pathname.includes('\\') || pathname.startsWith('//')) return false;
  return !pathname.split('/').some((segment) => segment === '.' || segment === '..');
}

function parsePayload(payload: string): unknown {
  if (!payload) return null;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return payload;
  }
}

export const syncBatchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/batch',
    { schema: { body: SyncBatchBody, response: { 200: SyncBatchResult } } },
    async (request) => {
      const headers: Record<string, string> = {};
      for (const name of FORWARDED) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const dispatch = async (entry: SyncBatchEntry): Promise<SyncBatchAnswer> => {
        if (!batchablePath(entry.path))
          return {
            id: entry.id,
            status: 400,
            body: apiErrorBody('NOT_BATCHABLE'),
          };
        const hasBody = entry.body !== undefined;
        const res = await app.inject({
          method: entry.method,
          url: `/v2${entry.path}`,
          remoteAddress: request.ip,
          headers: {
            ...headers,
            'idempotency-key': entry.id,
            ...(hasBody ? { 'content-type': 'application/json' } : {}),
          },
          ...(hasBody ? { payload: JSON.stringify(entry.body) } : {}),
        });
        return { id: entry.id, status: res.statusCode, body: parsePayload(res.payload) };
      };
      // One after the other: an entry may depend on an earlier one (a create, then its edit).
      const results: SyncBatchAnswer[] = [];
      for (const entry of request.body.entries) results.push(await dispatch(entry));
      return { results };
    },
  );
};
