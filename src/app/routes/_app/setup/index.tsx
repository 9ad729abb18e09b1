import { createFileRoute, redirect } from '@tanstack/react-router';

// organization-setup is the default step (§2.2).
export const Route = createFileRoute('/_app/setup/')({
  beforeLoad: () => {
    throw redirect({ to: '/setup/organization-setup', replace: true });
  },
});
