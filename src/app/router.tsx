// The router, with the session in its context so routes can redirect signed-in and signed-out users,
// and the query client so their loaders can start their pages' reads.
import { useEffect } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { queryClient } from './lib/query-client';
import { routeTree } from './routeTree.gen';
import { useSession } from './session/session-context';
import type { SessionApi } from './session/session-context';
import { FullPageMessage } from './shell/FullPageMessage';
import { RouteError } from './shell/RouteError';
import { Session } from '../api/messages';

export interface RouterContext {
  session: SessionApi;
  /** For the loaders: they start their page's server reads (each feature's queries.ts) in it. */
  queryClient: QueryClient;
}

export const router = createRouter({
  routeTree,
  context: { session: undefined! as SessionApi, queryClient },
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

/**
 * Starts loading the code of the routes the address names (layouts and page), so it arrives while
 * the session is read from the device: the router would ask for it only once it first renders, after
 * that read. A failure here (offline, code not cached) is left to the router's own load to report.
 */
export function preloadRouteCode(pathname: string): void {
  const [routes] = router.getMatchedRoutes(pathname);
  for (const route of routes) void router.loadRouteChunk(route)?.catch(() => undefined);
}
