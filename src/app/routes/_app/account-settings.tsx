import { createFileRoute } from '@tanstack/react-router';
import { AccountLayout } from '../../account/AccountLayout';

export const Route = createFileRoute('/_app/account-settings')({
  component: AccountLayout,
});
