// One /v2 resource as query options (TanStack Query's queryOptions): the same key and read for the
// route's loader, which starts it, and the page, which shows it (shell/data-view.tsx).
import { queryOptions } from '@tanstack/react-query';
import { api } from './api';

/** `path` under /v2, answered as `{result}` or the entity itself. */
export const v2Query = <T>(path: string) =>
  queryOptions({
    queryKey: ['v2', path],
    queryFn: async () => {
      const body = await api<{ result?: T } | T>('GET', path);
      // One entity comes as {result}; a list envelope {result, count, page, limit} is kept whole.
      const single = body && typeof body === 'object' && 'result' in body && !('count' in body);
      return (single ? (body as { result: T }).result : body) as T;
    },
    staleTime: 30_000,
  });
