// /dashboard/slides: slide cards with the filter bar (§2.7, §2.9). Entering it reads the first page
// from the local store while the page's code loads, so its first render has the rows.
import { createFileRoute } from '@tanstack/react-router';
import { SlidesPage } from '../../../slides/SlidesPage';
import { slideListQuery } from '../../../slides/slides-local';
import { listLoader } from '../../../sync/list-loader';

export const Route = createFileRoute('/_app/dashboard/slides')({
  loader: listLoader('scan-groups', slideListQuery),
  component: SlidesPage,
});
