import { createFileRoute } from '@tanstack/react-router';
import { TeamSetupCreateStep } from '../../../../setup/TeamSetupCreateStep';

export const Route = createFileRoute('/_app/setup/team-setup/create')({
  component: TeamSetupCreateStep,
});
