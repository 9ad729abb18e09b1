// The app's HTTP client for /v2: cookies carry the tokens (httpOnly), errors become ApiError with
// the server's message (§8), and one expired-token answer triggers a single shared refresh and retry.
import { extractMessage } from '../../api/messages';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

/** Thrown when the request never reached the server (offline, DNS, reset). */
export class NetworkError extends Error {}

type Refresher = () => Promise<boolean>;
let refresher: Refresher | undefined;
let inflight: Promise<boolean> | undefined;

/** The session registers how to refresh tokens; concurrent 401s share one refresh. */
export function setRefresher(fn: Refresher | undefined): void {
  refresher = fn;
}

async function refreshOnce(): Promise<boolean> {
  if (!refresher) return false;
  inflight ??= refresher().finally(() => (inflight = undefined));
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
  let res = await send();
  if (res.status === 401 && !opts.noRefresh && (await refreshOnce())) res = await send();
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
