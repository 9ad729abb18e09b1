// A dashboard list route's loader: reads the list's first page from the local store while the page's
// code loads, so its first render has the rows (primeLocalQuery). One for every list route.
import type { SyncKind } from '../../api/sync';
import type { LocalDb } from '../../local/db';
import { parseFilters, type FilterState } from '../filters/filter-state';
import type { RouterContext } from '../router';
import { primeLocalQuery } from './hooks';

/** A list's local query (key and read) for a filter state and page, as its page uses it. */
type ListQuery<T> = (
  filters: FilterState,
  page: number,
) => readonly [readonly unknown[], (db: LocalDb) => Promise<T>];

interface LoaderArgs {
  cause: 'preload' | 'enter' | 'stay';
  context: RouterContext;
  location: { search: Record<string, unknown> };
}

export const listLoader =
  <T>(kind: SyncKind, query: ListQuery<T>) =>
  ({ cause, context, location }: LoaderArgs) => {
    if (cause === 'stay') return;
    const { state } = context.session;
    const userId = state.status === 'signedIn' ? state.me.user.id : undefined;
    return primeLocalQuery(context.queryClient, userId, kind, ...query(parseFilters(location.search), 1));
  };
