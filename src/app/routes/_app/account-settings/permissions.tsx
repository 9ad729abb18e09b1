import { createFileRoute } from '@tanstack/react-router';
import { PermissionsPage } from '../../../account/PermissionsPage';

export const Route = createFileRoute('/_app/account-settings/permissions')({
  component: PermissionsPage,
});
