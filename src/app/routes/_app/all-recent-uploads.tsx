// /all-recent-uploads: the user's uploads and their statuses, from the local store first.
import { createFileRoute } from '@tanstack/react-router';
import { RecentUploadsPage } from '../../uploads/RecentUploadsPage';
import { uploadGroupsQuery } from '../../uploads/queries';

export const Route = createFileRoute('/_app/all-recent-uploads')({
  // The upload rules its read brings stay out of the app's first download.
  codeSplitGroupings: [['loader'], ['component']],
  loader: ({ context }) => {
    const { state } = context.session;
    if (state.status === 'signedIn')
      void context.queryClient.prefetchQuery(uploadGroupsQuery(state.me.user.id));
  },
  component: RecentUploadsPage,
});
