import { createFileRoute } from '@tanstack/react-router';
import { OrganizationSetupStep } from '../../../setup/OrganizationSetupStep';

export const Route = createFileRoute('/_app/setup/organization-setup')({
  component: OrganizationSetupStep,
});
