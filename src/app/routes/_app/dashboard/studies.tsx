// /dashboard/studies: the studies of the local store, with the 'Create New Study' tile (§2.9). Entering
// it reads the first page from the local store while the page's code loads, so its first render has
// the rows (as /dashboard/slides).
import { createFileRoute } from '@tanstack/react-router';
import { parseFilters } from '../../../filters/filter-state';
import { queryClient } from '../../../lib/query-client';
import { StudiesPage } from '../../../studies/StudiesPage';
import { studyListQuery } from '../../../studies/studies-local';
import { primeLocalQuery } from '../../../sync/hooks';

export const Route = createFileRoute('/_app/dashboard/studies')({
  loader: ({ cause, context, location }) => {
    if (cause === 'stay') return;
    const { state } = context.session;
    const userId = state.status === 'signedIn' ? state.me.user.id : undefined;
    return primeLocalQuery(
      queryClient,
      userId,
      'studies',
      ...studyListQuery(parseFilters(location.search), 1),
    );
  },
  component: StudiesPage,
});
