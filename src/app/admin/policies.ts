// The 24 policies (§6.1) as the admin screens show them: grouped by area, each with a readable label
// next to its name (the name is what the API stores and what an administrator searches for).
import { POLICIES, type Policy } from '../../access';

export const POLICY_GROUPS: ReadonlyArray<{ title: string; policies: readonly Policy[] }> = [
  {
    title: 'Organization and teams',
    policies: ['modifyOrganization', 'createTeams', 'modifyTeams'],
  },
  {
    title: 'Users',
    policies: [
      'createOrganizationUsers',
      'createTeamUsers',
      'modifyOrganizationUsers',
      'modifyTeamUsers',
      'deleteOrganizationUsers',
      'deleteTeamUsers',
    ],
  },
  {
    title: 'Slides and orders',
    policies: [
      'uploadOrganizationImages',
      'createOrganizationLabels',
      'createOrganizationOrders',
      'manageOrganizationSlides',
      'manageOrganizationArchivals',
      'createOrganizationAlignments',
    ],
  },
  {
    title: 'Studies and reviews',
    policies: [
      'manageOrganizationStudies',
      'manageOrganizationReview',
      'manageOrganizationQC',
      'manageOrganizationAnnotations',
    ],
  },
  {
    title: 'Platform',
    policies: [
      'platformOrganizationManagement',
      'platformUserManagement',
      'platformScanManagement',
      'platformExperimentManagement',
      'superAdmin',
    ],
  },
];

/** 'createTeamUsers' → 'Create team users'. */
export function policyLabel(policy: string): string {
  const words = policy.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1).replace(/\bqc\b/, 'QC');
}

/** A new organization's administrator gets every policy the organization has enabled. */
export const ADMIN_POLICIES: readonly Policy[] = POLICIES.filter(
  (p) => p !== 'superAdmin' && !p.startsWith('platform'),
);

/** The policies of a list in the spec's order, without unknown names and duplicates. */
export function inOrder(list: readonly string[]): string[] {
  const set = new Set(list);
  return POLICIES.filter((p) => set.has(p));
}
