// The page's transport for the sync engine: the app's HTTP client (cookies, one shared token refresh
// and retry on 401), with every answer that reached the server returned as {status, body}.
import type { Transport } from '../../local/transport';
import { NetworkError as LocalNetworkError } from '../../local/transport';
import { ApiError, NetworkError, api } from '../lib/api';

export const pageTransport: Transport = async ({ method, path, body, headers }) => {
  try {
    const json = await api<unknown>(method, path, { body, headers });
    return { status: 200, body: json };
  } catch (error) {
    if (error instanceof ApiError)
      return { status: error.status, body: error.body ?? { message: error.message } };
    if (error instanceof NetworkError) throw new LocalNetworkError(error.message);
    throw error;
  }
};
