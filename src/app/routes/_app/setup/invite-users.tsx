import { createFileRoute } from '@tanstack/react-router';
import { InviteUsersStep } from '../../../setup/steps';

export const Route = createFileRoute('/_app/setup/invite-users')({
  component: InviteUsersStep,
});
