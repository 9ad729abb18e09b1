// §6.2 rules for organizations, users and the admin areas.
import { Denied } from '../api/messages';
import type { ResolvedActor } from './actor';
import type { Builder } from './ability-types';
import type { AdminAreaName } from './subjects';
import type { Policy } from './policies';

/** "Modify is limited to name and enabledPolicies" (§6.2, Users). */
export const USER_MODIFIABLE_FIELDS = ['name', 'enabledPolicies'];
/** modifyTeams: what a parent may change on its descendant teams. `x.*` also matches `x` itself. */
export const TEAM_MODIFIABLE_FIELDS = [
  'availablePolicies',
  'enabledPolicies',
  'info.*',
  'adminUserId',
  'scanGroupSettings.*',
  'userLimit',
];
/**
 * modifyOrganization: the own organization's "enabledPolicies, info, default expiry days and
 * userLimit". Not availablePolicies nor the maximum expiry: those are the parent's to set.
 */
export const OWN_ORGANIZATION_FIELDS = [
  'enabledPolicies',
  'info.*',
  'scanGroupSettings.defaultActiveExpiryDays',
  'userLimit',
];

const FULL = ['create', 'read', 'update', 'delete', 'share', 'print'] as const;

/** Which policies open which admin area (decisions-access.md); super admin sees all. */
export const ADMIN_AREA_POLICIES: Record<AdminAreaName, readonly Policy[]> = {
  organization: [
    'modifyOrganization',
    'createTeams',
    'modifyTeams',
    'createOrganizationUsers',
    'createTeamUsers',
    'modifyOrganizationUsers',
    'modifyTeamUsers',
    'deleteOrganizationUsers',
    'deleteTeamUsers',
  ],
  activity: ['modifyOrganization', 'modifyTeams', 'modifyOrganizationUsers', 'modifyTeamUsers'],
  teams: ['createTeams', 'modifyTeams'],
  users: [
    'createOrganizationUsers',
    'createTeamUsers',
    'modifyOrganizationUsers',
    'modifyTeamUsers',
    'deleteOrganizationUsers',
    'deleteTeamUsers',
  ],
  'pictor-admin': ['platformOrganizationManagement', 'platformUserManagement'],
  setup: ['platformScanManagement', 'platformExperimentManagement'],
};

export function organizationRules({ can }: Builder, a: ResolvedActor): void {
  const own = { $in: [a.orgId] };
  const teams = { $in: a.teams };

  if (a.superAdmin) can([...FULL], ['Organization', 'User']);
  if (a.has('platformOrganizationManagement')) can('manage', 'Organization');
  if (a.has('platformUserManagement')) can('manage', 'User');

  // A new team is checked as it will be stored, with parentIds filled from its parent.
  if (a.has('createTeams')) can('create', 'Organization', { parentIds: a.rootId });
  if (a.has('modifyTeams')) can('update', 'Organization', TEAM_MODIFIABLE_FIELDS, { id: teams });
  if (a.has('modifyOrganization')) can('update', 'Organization', OWN_ORGANIZATION_FIELDS, { id: a.orgId });

  if (a.has('createOrganizationUsers')) can('create', 'User', { organizationId: own });
  if (a.has('createTeamUsers')) can('create', 'User', { organizationId: teams });
  if (a.has('modifyOrganizationUsers'))
    can('update', 'User', USER_MODIFIABLE_FIELDS, { organizationId: own });
  if (a.has('modifyTeamUsers')) can('update', 'User', USER_MODIFIABLE_FIELDS, { organizationId: teams });
  if (a.has('deleteOrganizationUsers')) can('delete', 'User', { organizationId: own });
  if (a.has('deleteTeamUsers')) can('delete', 'User', { organizationId: teams });

  can('update', 'User', ['name'], { id: a.userId });

  for (const [area, policies] of Object.entries(ADMIN_AREA_POLICIES)) {
    if (a.superAdmin || policies.some((p) => a.has(p))) can('view', 'AdminArea', { name: area });
  }
}

/** Added last so that no grant above, not even super admin's, outweighs them. */
export function organizationDenials({ cannot }: Builder, a: ResolvedActor): void {
  cannot('delete', 'User', { id: a.userId }).because(Denied.deleteYourself);
  cannot('delete', 'Organization', { id: a.orgId }).because(Denied.deleteOwnOrganization);
}
