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
  useEffect(() => {
    void router.invalidate();
  }, [session.state.status]);
  if (session.state.status === 'resuming') return <FullPageMessage text={Session.resuming} />;
  return <RouterProvider router={router} context={{ session }} />;
}
