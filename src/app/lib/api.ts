// The app's HTTP client for /v2: cookies carry the tokens (httpOnly), errors become ApiError with
// the server's message (§8) and its entry of the error catalogue, and one expired-token answer
// triggers a single shared refresh and retry.
// Every answer's `Date` header feeds the server clock the session plans its refreshes by (API answers
// are never cached: not by the service worker, and the server sends no validators).
import { catalogueText, recogniseError, type ErrorCode } from '../../api/errors';
import { extractMessage } from '../../api/messages';
import { NetworkError } from '../../local/transport';
import { noteServerDate } from '../session/server-clock';

/**
 * An error answer of the API. `known` is the catalogue's entry it is (src/api/errors.ts), so the app
 * tells errors apart by name (`error.is('EMAIL_TAKEN')`) rather than by status or wording, and shows
 * the catalogue's text for an entry of fixed text.
 */
export class ApiError extends Error {
  readonly known: ErrorCode | undefined;

  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly body?: unknown,
  ) {
    super(catalogueText(status, code, message));
    this.known = recogniseError(status, code, message);
  }

  /** Whether this answer is the catalogue's error `name`. */
  is(name: ErrorCode): boolean {
    return this.known === name;
  }
}

/**
 * Refreshes the tokens (the session's single path, shared with its timer and the other tabs) and says
 * whether a retry may succeed. `seen` is the session's mark (its access expiry) when the failed
 * request was sent: if the session moved on since, another refresh already happened.
 */
type Refresher = (seen: string | undefined) => Promise<boolean>;
let refresher: Refresher | undefined;
let sessionMark: (() => string | undefined) | undefined;
let inflight: Promise<boolean> | undefined;

/** The session registers how to refresh tokens and its current mark; concurrent 401s share one refresh. */
export function setRefresher(fn: Refresher | undefined, mark?: () => string | undefined): void {
  refresher = fn;
  sessionMark = fn ? mark : undefined;
}

async function refreshOnce(seen: string | undefined): Promise<boolean> {
  if (!refresher) return false;
  inflight ??= refresher(seen).finally(() => (inflight = undefined));
  return inflight;
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Skip the refresh-and-retry on 401 (the auth calls themselves). */
  noRefresh?: boolean;
}

export async function api<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const send = () =>
    fetch(`/v2${path}`, {
      method,
      credentials: 'same-origin',
      signal: opts.signal,
      headers: {
        Accept: 'application/json',
        ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    }).catch((error: unknown) => {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new NetworkError(extractMessage(error));
    });
  const seen = sessionMark?.();
  let res = await send();
  noteServerDate(res.headers.get('Date'));
  if (res.status === 401 && !opts.noRefresh && (await refreshOnce(seen))) {
    res = await send();
    noteServerDate(res.headers.get('Date'));
  }
  const text = await res.text();
  const json: unknown = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const code = json && typeof json === 'object' && 'code' in json ? String(json.code) : undefined;
    throw new ApiError(res.status, extractMessage(json ?? res.statusText), code, json);
  }
  return json as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
