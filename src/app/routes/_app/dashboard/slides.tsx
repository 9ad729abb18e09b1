// /dashboard/slides: slide cards with the filter bar (§2.7, §2.9). Entering it reads the first page
// from the local store while the page's code loads, so its first render has the rows.
import { createFileRoute } from '@tanstack/react-router';
import { parseFilters } from '../../../filters/filter-state';
import { queryClient } from '../../../lib/query-client';
import { SlidesPage } from '../../../slides/SlidesPage';
import { slideListQuery } from '../../../slides/slides-local';
import { primeLocalQuery } from '../../../sync/hooks';

export const Route = createFileRoute('/_app/dashboard/slides')({
  loader: ({ cause, context, location }) => {
    if (cause === 'stay') return;
    const { state } = context.session;
    const userId = state.status === 'signedIn' ? state.me.user.id : undefined;
    return primeLocalQuery(
      queryClient,
      userId,
      'scan-groups',
      ...slideListQuery(parseFilters(location.search), 1),
    );
  },
  component: SlidesPage,
});
