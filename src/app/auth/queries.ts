// The server reads of the auth routes, as query options shared by a route's loader and its page.
import { queryOptions } from '@tanstack/react-query';
import type { AuthOptions } from '../../api/auth';
import { api } from '../lib/api';

/** How one may sign in here (/signin: the Google button shows when the server offers it). */
export const authOptionsQuery = queryOptions({
  queryKey: ['auth', 'options'],
  queryFn: () => api<AuthOptions>('GET', '/auth/options'),
  staleTime: Infinity,
});

/** Which policies each application domain needs (docs/decisions.md). */
const DOMAIN_POLICIES: Record<string, string[]> = {
  uploader: ['uploadOrganizationImages'],
  admin: ['modifyOrganization'],
  platform: ['superAdmin'],
};

/** Whether the signed-in user may use an application domain (/auth/app/{domain}); refused is an error. */
export const appAccessQuery = (domain: string) =>
  queryOptions({
    queryKey: ['auth-app', domain],
    queryFn: () => api('POST', '/auth/app', { body: { requiredPolicies: DOMAIN_POLICIES[domain] ?? [] } }),
    retry: false,
  });
