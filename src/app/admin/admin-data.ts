// Organizations and users for the admin screens, read from the local mirror (src/local): the lists
// show at once and offline, and revalidate from the server at the §9 interval (30 s). Creates that
// need the server's answer at once (an invitation, a new team) go to the API directly and then pull.
import { useCallback, useEffect } from 'react';
import type { Organization, User } from '../../api/users';
import { readRows } from '../../local/read';
import type { Local } from '../../local/restore';
import { canViewAdminArea } from '../../access';
import { useAbility } from '../session/ability';
import { useMe, useSession } from '../session/session-context';
import { useSync } from '../sync/context';
import { useLocalQuery } from '../sync/hooks';

export type LocalOrganization = Local<Organization>;
export type LocalUser = Local<User>;

/** Every organization the user may read, by name. */
export function useOrganizations(): LocalOrganization[] | undefined {
  return useLocalQuery('organizations', ['all'], (db) =>
    readRows<Organization>(db, 'organizations', { orderBy: 'name' }),
  ).data;
}

/** Users of the given organizations (all readable users when `orgIds` is undefined), newest first. */
export function useUsers(orgIds?: readonly string[]): LocalUser[] | undefined {
  const key = orgIds ? [...orgIds].sort() : ['all'];
  return useLocalQuery('users', ['admin', ...key], (db) =>
    readRows<User>(db, 'users', {
      orderBy: 'updatedAt',
      reverse: true,
      where: orgIds ? (r) => orgIds.includes(r.organizationId as string) : undefined,
    }),
  ).data;
}

/** The organization and every team below it. */
export function treeOf(orgs: readonly Organization[], rootId: string): Organization[] {
  return orgs.filter((o) => o.id === rootId || o.parentIds.includes(rootId));
}

/**
 * The organizations the user administers (§5 organization selection): platform administrators all,
 * everyone else their own organization and its teams.
 */
export function useAdministeredOrganizations(): LocalOrganization[] | undefined {
  const me = useMe();
  const { ability } = useAbility();
  const orgs = useOrganizations();
  if (!orgs) return undefined;
  if (canViewAdminArea(ability, 'pictor-admin')) return orgs;
  return orgs.filter((o) => o.id === me.organization.id || o.parentIds.includes(me.organization.id));
}

/** Pulls organizations and users now, after a create made through the API. */
export function useRefreshAdmin(): () => Promise<void> {
  const { engine } = useSync();
  return useCallback(async () => {
    await engine?.pull(['organizations', 'users'], true);
  }, [engine]);
}

/** "Team A › Team A1": an organization's place in its tree, for lists that mix levels. */
export function pathName(orgs: readonly Organization[], org: Organization): string {
  const names = org.parentIds
    .map((id) => orgs.find((o) => o.id === id)?.name)
    .filter((n): n is string => !!n);
  return [...names, org.name].join(' › ');
}

const sameMembers = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * Keeps the session's own user and organization (and so the abilities every control reads) in step
 * with the mirror: once an edit of the user's own policies or organization is on the server (no
 * longer pending), or a team was added (the abilities over teams read childIds), /auth/me is asked
 * again.
 */
export function useSessionFollowsMirror(): void {
  const me = useMe();
  const { reloadMe } = useSession();
  const orgs = useOrganizations();
  const users = useUsers([me.organization.id]);
  const org = orgs?.find((o) => o.id === me.organization.id);
  const user = users?.find((u) => u.id === me.user.id);
  const stale =
    (!!org &&
      !org.$pending &&
      (!sameMembers(org.enabledPolicies, me.organization.enabledPolicies) ||
        !sameMembers(org.availablePolicies, me.organization.availablePolicies) ||
        !sameMembers(org.childIds, me.organization.childIds))) ||
    (!!user &&
      !user.$pending &&
      (!sameMembers(user.enabledPolicies, me.user.enabledPolicies) || user.name !== me.user.name));
  const signature = `${org?.enabledPolicies.join()}|${org?.availablePolicies.join()}|${org?.childIds.join()}|${user?.enabledPolicies.join()}|${user?.name}`;
  useEffect(() => {
    if (stale) void reloadMe().catch(() => undefined);
    // Asked once per new mirror state, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stale, signature]);
}
