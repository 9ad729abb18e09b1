// §6.2 rules for organizations, users and admin areas: each rule allowed and denied.
import { describe, expect, it } from 'vitest';
import { denialMessage, asSubject, ADMIN_AREAS } from '../../../src/access';
import { Denied } from '../../../src/api/messages';
import { abilityOf, allows, title, type Case, LAB, ME, OUT, PEER, ROOT, SIB, TEAM, TEAM2 } from './fixtures';

const cases: Case[] = [
  // Everyone reads organizations in their own root.
  {
    name: 'reading the own root organization',
    action: 'read',
    type: 'Organization',
    row: { id: ROOT, rootId: ROOT },
    allow: true,
  },
  {
    name: 'reading a sibling team in the own root',
    action: 'read',
    type: 'Organization',
    row: { id: SIB, rootId: ROOT },
    allow: true,
  },
  {
    name: 'reading an organization of another root',
    action: 'read',
    type: 'Organization',
    row: { id: OUT, rootId: OUT },
    allow: false,
  },
  {
    name: 'reading another root with platformOrganizationManagement',
    policies: ['platformOrganizationManagement'],
    action: 'read',
    type: 'Organization',
    row: { id: OUT, rootId: OUT },
    allow: true,
  },
  {
    name: 'reading another root as super admin',
    policies: ['superAdmin'],
    action: 'read',
    type: 'Organization',
    row: { id: OUT, rootId: OUT },
    allow: true,
  },
  // Users: own organization, child teams, parent organizations.
  {
    name: 'reading a user of the own organization',
    action: 'read',
    type: 'User',
    row: { id: PEER, organizationId: LAB },
    allow: true,
  },
  {
    name: 'reading a user of a child team',
    action: 'read',
    type: 'User',
    row: { id: 'u', organizationId: TEAM2 },
    allow: true,
  },
  {
    name: 'reading a user of a parent organization',
    action: 'read',
    type: 'User',
    row: { id: 'u', organizationId: ROOT },
    allow: true,
  },
  {
    name: 'reading a user of a sibling team',
    action: 'read',
    type: 'User',
    row: { id: 'u', organizationId: SIB },
    allow: false,
  },
  {
    name: 'reading a user of another root with platformUserManagement',
    policies: ['platformUserManagement'],
    action: 'read',
    type: 'User',
    row: { id: 'u', organizationId: OUT },
    allow: true,
  },
  // Everyone updates their own name, and nothing else of themselves.
  {
    name: 'updating the own name',
    action: 'update',
    type: 'User',
    row: { id: ME, organizationId: LAB },
    field: 'name',
    allow: true,
  },
  {
    name: 'updating the own enabledPolicies without a policy',
    action: 'update',
    type: 'User',
    row: { id: ME, organizationId: LAB },
    field: 'enabledPolicies',
    allow: false,
  },
  {
    name: "updating a peer's name without a policy",
    action: 'update',
    type: 'User',
    row: { id: PEER, organizationId: LAB },
    field: 'name',
    allow: false,
  },
  // createTeams: under the own root only.
  {
    name: 'creating a team under the own root with createTeams',
    policies: ['createTeams'],
    action: 'create',
    type: 'Organization',
    row: { rootId: ROOT, parentIds: [ROOT, LAB] },
    allow: true,
  },
  {
    name: 'creating a team without createTeams',
    action: 'create',
    type: 'Organization',
    row: { rootId: ROOT, parentIds: [ROOT, LAB] },
    allow: false,
  },
  {
    name: 'creating a team under another root with createTeams',
    policies: ['createTeams'],
    action: 'create',
    type: 'Organization',
    row: { rootId: OUT, parentIds: [OUT] },
    allow: false,
  },
  {
    name: 'creating a new root organization with createTeams',
    policies: ['createTeams'],
    action: 'create',
    type: 'Organization',
    row: { rootId: 'new', parentIds: [] },
    allow: false,
  },
  {
    name: 'creating a root organization with platformOrganizationManagement',
    policies: ['platformOrganizationManagement'],
    action: 'create',
    type: 'Organization',
    row: { rootId: 'new', parentIds: [] },
    allow: true,
  },
  // modifyTeams: listed fields of descendant teams.
  ...[
    'availablePolicies',
    'enabledPolicies',
    'info',
    'info.city',
    'adminUserId',
    'scanGroupSettings',
    'scanGroupSettings.maxDefaultActiveExpiryDays',
    'userLimit',
  ].map((field): Case => ({
    name: `updating a child team's ${field} with modifyTeams`,
    policies: ['modifyTeams'],
    action: 'update',
    type: 'Organization',
    row: { id: TEAM2 },
    field,
    allow: true,
  })),
  {
    name: "updating a child team's name with modifyTeams",
    policies: ['modifyTeams'],
    action: 'update',
    type: 'Organization',
    row: { id: TEAM },
    field: 'name',
    allow: false,
  },
  {
    name: "updating a sibling team's info with modifyTeams",
    policies: ['modifyTeams'],
    action: 'update',
    type: 'Organization',
    row: { id: SIB },
    field: 'info',
    allow: false,
  },
  {
    name: "updating the own organization's info with modifyTeams only",
    policies: ['modifyTeams'],
    action: 'update',
    type: 'Organization',
    row: { id: LAB },
    field: 'info',
    allow: false,
  },
  {
    name: "updating a child team's info without modifyTeams",
    action: 'update',
    type: 'Organization',
    row: { id: TEAM },
    field: 'info',
    allow: false,
  },
  // modifyOrganization: listed fields of the own organization.
  ...['enabledPolicies', 'info', 'info.phone', 'scanGroupSettings.defaultActiveExpiryDays', 'userLimit'].map(
    (field): Case => ({
      name: `updating the own organization's ${field} with modifyOrganization`,
      policies: ['modifyOrganization'],
      action: 'update',
      type: 'Organization',
      row: { id: LAB },
      field,
      allow: true,
    }),
  ),
  ...['availablePolicies', 'scanGroupSettings.maxDefaultActiveExpiryDays', 'adminUserId', 'name'].map(
    (field): Case => ({
      name: `updating the own organization's ${field} with modifyOrganization`,
      policies: ['modifyOrganization'],
      action: 'update',
      type: 'Organization',
      row: { id: LAB },
      field,
      allow: false,
    }),
  ),
  {
    name: "updating the parent organization's info with modifyOrganization",
    policies: ['modifyOrganization'],
    action: 'update',
    type: 'Organization',
    row: { id: ROOT },
    field: 'info',
    allow: false,
  },
  // Users per matching policy, in the own organization or child teams.
  {
    name: 'creating a user in the own organization with createOrganizationUsers',
    policies: ['createOrganizationUsers'],
    action: 'create',
    type: 'User',
    row: { organizationId: LAB },
    allow: true,
  },
  {
    name: 'creating a user in a child team with createOrganizationUsers only',
    policies: ['createOrganizationUsers'],
    action: 'create',
    type: 'User',
    row: { organizationId: TEAM },
    allow: false,
  },
  {
    name: 'creating a user in a child team with createTeamUsers',
    policies: ['createTeamUsers'],
    action: 'create',
    type: 'User',
    row: { organizationId: TEAM2 },
    allow: true,
  },
  {
    name: 'creating a user in the own organization with createTeamUsers only',
    policies: ['createTeamUsers'],
    action: 'create',
    type: 'User',
    row: { organizationId: LAB },
    allow: false,
  },
  {
    name: 'creating a user in the parent organization with both create policies',
    policies: ['createOrganizationUsers', 'createTeamUsers'],
    action: 'create',
    type: 'User',
    row: { organizationId: ROOT },
    allow: false,
  },
  {
    name: "updating a peer's name with modifyOrganizationUsers",
    policies: ['modifyOrganizationUsers'],
    action: 'update',
    type: 'User',
    row: { id: PEER, organizationId: LAB },
    field: 'name',
    allow: true,
  },
  {
    name: "updating a peer's enabledPolicies with modifyOrganizationUsers",
    policies: ['modifyOrganizationUsers'],
    action: 'update',
    type: 'User',
    row: { id: PEER, organizationId: LAB },
    field: 'enabledPolicies',
    allow: true,
  },
  {
    name: "updating a peer's email with modifyOrganizationUsers",
    policies: ['modifyOrganizationUsers'],
    action: 'update',
    type: 'User',
    row: { id: PEER, organizationId: LAB },
    field: 'email',
    allow: false,
  },
  {
    name: "updating a team user's enabledPolicies with modifyTeamUsers",
    policies: ['modifyTeamUsers'],
    action: 'update',
    type: 'User',
    row: { id: 'u', organizationId: TEAM },
    field: 'enabledPolicies',
    allow: true,
  },
  {
    name: "updating a team user's organizationId with modifyTeamUsers",
    policies: ['modifyTeamUsers'],
    action: 'update',
    type: 'User',
    row: { id: 'u', organizationId: TEAM },
    field: 'organizationId',
    allow: false,
  },
  {
    name: "updating a peer's name with modifyTeamUsers only",
    policies: ['modifyTeamUsers'],
    action: 'update',
    type: 'User',
    row: { id: PEER, organizationId: LAB },
    field: 'name',
    allow: false,
  },
  {
    name: 'deleting a peer with deleteOrganizationUsers',
    policies: ['deleteOrganizationUsers'],
    action: 'delete',
    type: 'User',
    row: { id: PEER, organizationId: LAB },
    allow: true,
  },
  {
    name: 'deleting a peer without a policy',
    action: 'delete',
    type: 'User',
    row: { id: PEER, organizationId: LAB },
    allow: false,
  },
  {
    name: 'deleting a team user with deleteTeamUsers',
    policies: ['deleteTeamUsers'],
    action: 'delete',
    type: 'User',
    row: { id: 'u', organizationId: TEAM },
    allow: true,
  },
  {
    name: 'deleting a team user with deleteOrganizationUsers only',
    policies: ['deleteOrganizationUsers'],
    action: 'delete',
    type: 'User',
    row: { id: 'u', organizationId: TEAM },
    allow: false,
  },
  // Nobody deletes themselves or their own organization, super admin included.
  {
    name: 'deleting oneself even with deleteOrganizationUsers and super admin',
    policies: ['deleteOrganizationUsers', 'superAdmin', 'platformUserManagement'],
    action: 'delete',
    type: 'User',
    row: { id: ME, organizationId: LAB },
    allow: false,
  },
  {
    name: 'deleting the own organization even as super admin',
    policies: ['superAdmin', 'platformOrganizationManagement'],
    action: 'delete',
    type: 'Organization',
    row: { id: LAB },
    allow: false,
  },
  {
    name: 'deleting another organization as super admin',
    policies: ['superAdmin'],
    action: 'delete',
    type: 'Organization',
    row: { id: OUT },
    allow: true,
  },
  {
    name: 'deleting another organization without a policy',
    action: 'delete',
    type: 'Organization',
    row: { id: OUT },
    allow: false,
  },
  // Super admin: full rights on organizations and users.
  ...(['create', 'read', 'update', 'delete', 'share', 'print'] as const).map((action): Case => ({
    name: `${action} on another root's user as super admin`,
    policies: ['superAdmin'],
    action,
    type: 'User',
    row: { id: 'u', organizationId: OUT },
    allow: true,
  })),
  {
    name: "updating another root's user as a member",
    action: 'update',
    type: 'User',
    row: { id: 'u', organizationId: OUT },
    field: 'name',
    allow: false,
  },
];

describe('organizations and users', () => {
  it.each(cases.map((c) => [title(c), c] as const))('%s', (_t, c) => {
    expect(allows(c)).toBe(c.allow);
  });

  it('should explain self-deletion with the spec text', () => {
    const ability = abilityOf(['deleteOrganizationUsers']);
    expect(denialMessage(ability, 'delete', asSubject('User', { id: ME, organizationId: LAB }))).toBe(
      'You cannot delete yourself',
    );
    expect(Denied.deleteYourself).toBe('You cannot delete yourself');
  });

  it('should explain deleting the own organization with the spec text', () => {
    const ability = abilityOf(['superAdmin']);
    expect(denialMessage(ability, 'delete', asSubject('Organization', { id: LAB }))).toBe(
      'You cannot delete your own organization',
    );
  });
});

describe('admin areas', () => {
  const table: [string, Parameters<typeof abilityOf>[0], (typeof ADMIN_AREAS)[number], boolean][] = [
    ['organization with modifyOrganization', ['modifyOrganization'], 'organization', true],
    ['organization without admin policies', ['manageOrganizationStudies'], 'organization', false],
    ['teams with createTeams', ['createTeams'], 'teams', true],
    ['teams with modifyOrganization only', ['modifyOrganization'], 'teams', false],
    ['users with modifyTeamUsers', ['modifyTeamUsers'], 'users', true],
    ['users with createTeams only', ['createTeams'], 'users', false],
    ['activity with modifyOrganization', ['modifyOrganization'], 'activity', true],
    ['activity without admin policies', [], 'activity', false],
    [
      'pictor-admin with platformOrganizationManagement',
      ['platformOrganizationManagement'],
      'pictor-admin',
      true,
    ],
    ['pictor-admin with modifyOrganization', ['modifyOrganization'], 'pictor-admin', false],
    ['setup with platformScanManagement', ['platformScanManagement'], 'setup', true],
    ['setup with modifyTeams', ['modifyTeams'], 'setup', false],
  ];
  it.each(table)('should decide the %s', (_n, policies, area, allow) => {
    expect(abilityOf(policies).can('view', asSubject('AdminArea', { name: area }))).toBe(allow);
  });

  it.each(ADMIN_AREAS.map((a) => [a]))('should allow a super admin to view %s', (area) => {
    expect(abilityOf(['superAdmin']).can('view', asSubject('AdminArea', { name: area }))).toBe(true);
  });

  it('should deny every admin area to a member without policies', () => {
    const ability = abilityOf([]);
    for (const name of ADMIN_AREAS) expect(ability.can('view', asSubject('AdminArea', { name }))).toBe(false);
  });
});
