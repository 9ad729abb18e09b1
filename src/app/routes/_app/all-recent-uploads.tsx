// /all-recent-uploads: the user's uploads and their statuses, from the local store first.
import { createFileRoute } from '@tanstack/react-router';
import { RecentUploadsPage } from '../../uploads/RecentUploadsPage';

export const Route = createFileRoute('/_app/all-recent-uploads')({
  component: RecentUploadsPage,
});
