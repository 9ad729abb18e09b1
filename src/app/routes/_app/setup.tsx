import { createFileRoute } from '@tanstack/react-router';
import { SetupLayout } from '../../setup/SetupLayout';

export const Route = createFileRoute('/_app/setup')({
  component: SetupLayout,
});
