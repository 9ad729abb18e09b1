// /dashboard/studies: the studies of the local store, with the 'Create New Study' tile (§2.9). Entering
// it reads the first page from the local store while the page's code loads, so its first render has
// the rows (as /dashboard/slides).
import { createFileRoute } from '@tanstack/react-router';
import { StudiesPage } from '../../../studies/StudiesPage';
import { studyListQuery } from '../../../studies/studies-local';
import { listLoader } from '../../../sync/list-loader';

export const Route = createFileRoute('/_app/dashboard/studies')({
  loader: listLoader('studies', studyListQuery),
  component: StudiesPage,
});
