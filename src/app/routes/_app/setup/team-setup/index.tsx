import { createFileRoute } from '@tanstack/react-router';
import { TeamSetupStep } from '../../../../setup/TeamSetupStep';

export const Route = createFileRoute('/_app/setup/team-setup/')({
  component: TeamSetupStep,
});
