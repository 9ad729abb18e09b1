// The root route: carries the session in the router context; an unexpected error gets a calm screen.
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { RouterContext } from '../router';
import { AppErrorScreen } from '../shell/AppErrorScreen';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  errorComponent: AppErrorScreen,
});
