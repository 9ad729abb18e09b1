import { createFileRoute, redirect } from '@tanstack/react-router';
export const Route = createFileRoute('/_app/administrator/pictor-admin/create')({
  beforeLoad: () => {
    throw redirect({ to: '/new-organization', replace: true });
  },
});
