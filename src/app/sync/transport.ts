// The page's transport for the sync engine: the app's HTTP client (cookies, one shared token refresh
// and retry on 401), with every answer that reached the server returned as {status, body}; a request
// that got no answer throws the sync engine's NetworkError, which the client throws as it is.
import type { Transport } from '../../local/transport';
import { ApiError, api } from '../lib/api';

export const pageTransport: Transport = async ({ method, path, body, headers }) => {
  try {
    const json = await api<unknown>(method, path, { body, headers });
    return { status: 200, body: json };
  } catch (error) {
    if (error instanceof ApiError)
      return { status: error.status, body: error.body ?? { message: error.message } };
    throw error;
  }
};
