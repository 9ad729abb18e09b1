import { createFileRoute } from '@tanstack/react-router';
import { AccountLayout } from '../../account/AccountPages';

export const Route = createFileRoute('/_app/account-settings')({
  component: AccountLayout,
});
