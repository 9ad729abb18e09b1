// The 24 policies of spec §6.1 and the effective-policy intersection every permission derives from.

/** In the spec's order; the tuple is the single list the server validates policy arrays against. */
export const POLICIES = [
  'platformOrganizationManagement',
  'createTeams',
  'modifyTeams',
  'modifyOrganization',
  'superAdmin',
  'createOrganizationUsers',
  'createTeamUsers',
  'modifyOrganizationUsers',
  'modifyTeamUsers',
  'deleteOrganizationUsers',
  'deleteTeamUsers',
  'platformUserManagement',
  'platformScanManagement',
  'createOrganizationLabels',
  'manageOrganizationSlides',
  'createOrganizationAlignments',
  'manageOrganizationArchivals',
  'createOrganizationOrders',
  'platformExperimentManagement',
  'manageOrganizationQC',
  'manageOrganizationReview',
  'manageOrganizationAnnotations',
  'manageOrganizationStudies',
  'uploadOrganizationImages',
] as const;

export type Policy = (typeof POLICIES)[number];

const known: ReadonlySet<string> = new Set(POLICIES);

export function isPolicy(value: string): value is Policy {
  return known.has(value);
}

/**
 * Effective policies (§6): what the user has enabled, also enabled by the organization, and
 * available to the organization. Keeps the user's order, drops duplicates and names that are not
 * one of the 24 (stored data may carry old names; they must grant nothing).
 */
export function effectivePolicies(
  userEnabled: readonly string[],
  orgEnabled: readonly string[],
  orgAvailable: readonly string[],
): Policy[] {
  const enabled = new Set(orgEnabled);
  const available = new Set(orgAvailable);
  const out: Policy[] = [];
  const seen = new Set<string>();
  for (const p of userEnabled) {
    if (seen.has(p) || !isPolicy(p) || !enabled.has(p) || !available.has(p)) continue;
    seen.add(p);
    out.push(p);
  }
  return out;
}
