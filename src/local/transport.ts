// How the sync engine talks to /v2, injected so that the page (cookies, refresh on 401), the service
// worker (plain fetch, cookies) and the tests (a real server on a port, Bearer token) share the code.
import { extractMessage } from '../api/messages';
import { SYNC_BATCH_PATH, SyncBatchResult, type SyncBatchEntry } from '../api/sync-batch';

export interface TransportRequest {
  method: string;
  /** Under /v2, with its query string: '/sync/studies?cursor=12'. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TransportResponse {
  status: number;
  /** Parsed JSON when the answer was JSON, the text otherwise, undefined when empty. */
  body: unknown;
}

/** Answers every request that reached the server (any status); throws NetworkError otherwise. */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** The request never got an answer: offline, DNS, reset, or the answer was lost on the way. */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

/** A transport over a fetch function; `base` is the /v2 prefix (absolute in tests). */
export function fetchTransport(
  fetchFn: typeof fetch,
  base = '/v2',
  extraHeaders: Record<string, string> = {},
): Transport {
  return async ({ method, path, body, headers }) => {
    let res: Response;
    let text: string;
    try {
      res = await fetchFn(`${base}${path}`, {
        method,
        credentials: 'same-origin',
        headers: {
          Accept: 'application/json',
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...extraHeaders,
          ...headers,
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      text = await res.text();
    } catch (error) {
      throw new NetworkError(extractMessage(error));
    }
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed };
  };
}

/** One request of a batch: its route, body and Idempotency-Key. */
export interface BatchedRequest {
  key: string;
  method: SyncBatchEntry['method'];
  path: string;
  body?: unknown;
}

/**
 * Sends requests in one round trip (POST /v2/sync/batch): the server answers each as its own route
 * would, in order. Returns one answer per request (the batch's own answer for each when that was a 401
 * or a transient failure: 408, 429, 5xx); 'no-batch-call' from a server without it (404, 405); 'alone'
 * when the requests must go one by one instead (a batch refused as a whole, an answer that does not
 * match). Throws NetworkError like the transport.
 */
export async function sendBatch(
  transport: Transport,
  requests: readonly BatchedRequest[],
): Promise<TransportResponse[] | 'no-batch-call' | 'alone'> {
  const entries: SyncBatchEntry[] = requests.map(({ key, method, path, body }) =>
    body === undefined ? { id: key, method, path } : { id: key, method, path, body },
  );
  const res = await transport({ method: 'POST', path: SYNC_BATCH_PATH, body: { entries } });
  if (res.status === 401 || res.status === 408 || res.status === 429 || res.status >= 500)
    return requests.map(() => res);
  if (res.status === 404 || res.status === 405) return 'no-batch-call';
  if (res.status !== 200) return 'alone';
  const parsed = SyncBatchResult.safeParse(res.body);
  const results = parsed.success ? parsed.data.results : [];
  // An answer that does not match the entries is not trusted: each goes again alone, same key.
  if (results.length !== requests.length || results.some((r, i) => r.id !== requests[i].key)) return 'alone';
  return results.map(({ status, body }) => ({ status, body: body ?? undefined }));
}
