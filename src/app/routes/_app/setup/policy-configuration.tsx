import { createFileRoute } from '@tanstack/react-router';
import { PolicyConfigurationStep } from '../../../setup/PolicyConfigurationStep';

export const Route = createFileRoute('/_app/setup/policy-configuration')({
  component: PolicyConfigurationStep,
});
