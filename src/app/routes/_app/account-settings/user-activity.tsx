import { createFileRoute } from '@tanstack/react-router';
import { UserActivityPage } from '../../../account/UserActivityPage';

export const Route = createFileRoute('/_app/account-settings/user-activity')({
  component: UserActivityPage,
});
