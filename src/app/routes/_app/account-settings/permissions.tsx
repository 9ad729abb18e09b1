import { createFileRoute } from '@tanstack/react-router';
import { PermissionsPage } from '../../../account/AccountPages';

export const Route = createFileRoute('/_app/account-settings/permissions')({
  component: PermissionsPage,
});
