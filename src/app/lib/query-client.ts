// One QueryClient for the app: spec §9's default stale time of an hour and no retries. Queries stay
// cached as long as the persisted cache may be restored (persist.ts), so a page reopened offline shows
// what it last showed; the local-first queries (src/app/sync) answer from the local store anyway.
import { QueryClient } from '@tanstack/react-query';
import { PERSIST_MAX_AGE_MS } from './persist';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60 * 60 * 1000,
      gcTime: PERSIST_MAX_AGE_MS,
      retry: false,
      networkMode: 'offlineFirst',
    },
  },
});
