// How the sync engine talks to /v2, injected so that the page (cookies, refresh on 401), the service
// worker (plain fetch, cookies) and the tests (a real server on a port, Bearer token) share the code.
import { extractMessage } from '../api/messages';

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
