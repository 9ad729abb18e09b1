import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '../../../admin/UsersPage';

export const Route = createFileRoute('/_app/administrator/user')({
  component: UsersPage,
});
