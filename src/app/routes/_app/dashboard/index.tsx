// /dashboard opens on recent activity (spec §2.2).
import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/dashboard/')({
  beforeLoad: () => {
    throw redirect({ to: '/dashboard/recent-activity', replace: true });
  },
});
