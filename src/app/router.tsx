// The router, with the session in its context so routes can redirect signed-in and signed-out users.
import { useEffect } from 'react';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';
import { useSession } from './session/session-context';
import type { SessionApi } from './session/session-context';
import { FullPageMessage } from './shell/FullPageMessage';
import { RouteError } from './shell/RouteError';
import { Session } from '../api/messages';

export interface RouterContext {
  session: SessionApi;
}

export const router = createRouter({
  routeTree,
  context: { session: undefined! as SessionApi },
  defaultPreload: 'intent',
  defaultPendingComponent: () => <FullPageMessage text={Session.loading} />,
  // A page whose code did not load offline says so in place; other errors reach the root's screen.
  defaultErrorComponent: RouteError,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

export function AppRouter() {
  const session = useSession();
  const status = session.state.status;
  useEffect(() => {
    // A sign-in or sign-out re-runs the routes' redirects. While the session resumes the router is
    // not rendered and has no session in its context yet: its first render loads the routes itself.
    if (status !== 'resuming') void router.invalidate();
  }, [status]);
  if (session.state.status === 'resuming') return <FullPageMessage text={Session.resuming} />;
  return <RouterProvider router={router} context={{ session }} />;
}
