import { createFileRoute } from '@tanstack/react-router';
import { AdminActivityPage } from '../../../admin/AdminActivityPage';

export const Route = createFileRoute('/_app/administrator/activity')({
  component: AdminActivityPage,
});
