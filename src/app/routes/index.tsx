// "/" (the logo's link): the dashboard when signed in, else sign-in.
import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/')({
  beforeLoad: ({ context }) => {
    throw redirect({
      to: context.session.state.status === 'signedIn' ? '/dashboard' : '/signin',
      replace: true,
    });
  },
});
