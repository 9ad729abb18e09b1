import { createFileRoute, redirect } from '@tanstack/react-router';
export const Route = createFileRoute('/_app/administrator/')({
  beforeLoad: () => {
    throw redirect({ to: '/administrator/organization', replace: true });
  },
});
