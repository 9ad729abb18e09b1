import { createFileRoute } from '@tanstack/react-router';
import { ActivityPage } from '../../activity/ActivityPage';

export const Route = createFileRoute('/_app/activity')({
  component: ActivityPage,
});
