// Any other path: signed-in users go to /dashboard, everyone else to /signin (spec §2.1, §2.2).
import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/$')({
  beforeLoad: ({ context }) => {
    throw redirect({
      to: context.session.state.status === 'signedIn' ? '/dashboard' : '/signin',
      replace: true,
    });
  },
});
