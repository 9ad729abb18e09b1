// Signed-out pages (/signin, /signup, /register, /rp, /fp) share a centered card; signed-in users skip
// them, except one who must sign in again (their local data waits behind the sign-in form).
import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { AuthLayout } from '../auth/AuthLayout';
import { safeContinue } from '../lib/continue';

export const Route = createFileRoute('/_public')({
  beforeLoad: ({ context, search }) => {
    const { state } = context.session;
    if (state.status !== 'signedIn' || state.signInNeeded) return;
    const back = safeContinue((search as Record<string, unknown>).continue);
    throw back ? redirect({ href: back, replace: true }) : redirect({ to: '/dashboard', replace: true });
  },
  component: PublicLayout,
});

function PublicLayout() {
  return (
    <AuthLayout>
      <Outlet />
    </AuthLayout>
  );
}
