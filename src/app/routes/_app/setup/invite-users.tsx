import { createFileRoute } from '@tanstack/react-router';
import { InviteUsersStep } from '../../../setup/InviteUsersStep';

export const Route = createFileRoute('/_app/setup/invite-users')({
  component: InviteUsersStep,
});
