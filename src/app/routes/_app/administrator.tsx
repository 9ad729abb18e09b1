import { createFileRoute } from '@tanstack/react-router';
import { AdminLayout } from '../../admin/AdminLayout';

export const Route = createFileRoute('/_app/administrator')({
  component: AdminLayout,
});
