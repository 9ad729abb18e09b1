import { createFileRoute } from '@tanstack/react-router';
import { UserActivityPage } from '../../../account/AccountPages';

export const Route = createFileRoute('/_app/account-settings/user-activity')({
  component: UserActivityPage,
});
