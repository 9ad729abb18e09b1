// The §6.2 menu checks: each enabled with the right policy and greyed out without it.
import { describe, expect, it } from 'vitest';
import * as menu from '../../../src/access';
import { denialTooltip, type Policy } from '../../../src/access';
import { abilityOf, LAB, ME, OUT, PEER } from './fixtures';

const me = { userId: ME, organizationId: LAB };
const study = { organizationId: LAB, creatorUserId: PEER, assigneeUserIds: [ME], assigneeOrgIds: [LAB] };
const foreignStudy = {
  organizationId: OUT,
  creatorUserId: 'x',
  assigneeUserIds: ['x'],
  assigneeOrgIds: [OUT],
};
const slide = { organizationId: LAB, creatorUserId: PEER };
const activeImage = { organizationId: LAB, storageStatus: 'active' as const };

type Check = (ability: ReturnType<typeof abilityOf>) => boolean;
const table: [string, Policy[], Check, Check][] = [
  // [name, policy that enables, check that must pass with it, check that must fail without it]
  [
    'canPrintStudy',
    ['manageOrganizationStudies'],
    (a) => menu.canPrintStudy(a, study),
    (a) => menu.canPrintStudy(a, study),
  ],
  [
    'canDownloadImage',
    ['manageOrganizationSlides'],
    (a) => menu.canDownloadImage(a, activeImage),
    (a) => menu.canDownloadImage(a, activeImage),
  ],
  [
    'canShareStudy',
    ['manageOrganizationStudies'],
    (a) => menu.canShareStudy(a, study),
    (a) => menu.canShareStudy(a, study),
  ],
  [
    'canRequestReview',
    ['manageOrganizationReview'],
    (a) => menu.canRequestReview(a, me),
    (a) => menu.canRequestReview(a, me),
  ],
  [
    'canRenameStudy',
    ['manageOrganizationStudies'],
    (a) => menu.canRenameStudy(a, study),
    (a) => menu.canRenameStudy(a, study),
  ],
  [
    'canDeleteStudy',
    ['manageOrganizationStudies'],
    (a) => menu.canDeleteStudy(a, study),
    (a) => menu.canDeleteStudy(a, study),
  ],
  [
    'canCreateStudy',
    ['manageOrganizationStudies'],
    (a) => menu.canCreateStudy(a, me),
    (a) => menu.canCreateStudy(a, me),
  ],
  [
    'canEditStudyTags',
    [],
    (a) => menu.canEditStudyTags(a, study),
    (a) => menu.canEditStudyTags(a, foreignStudy),
  ],
  [
    'canShareSlide',
    ['manageOrganizationSlides'],
    (a) => menu.canShareSlide(a, slide),
    (a) => menu.canShareSlide(a, slide),
  ],
  [
    'canReplicateToStudy',
    ['manageOrganizationStudies'],
    (a) => menu.canReplicateToStudy(a, study),
    (a) => menu.canReplicateToStudy(a, study),
  ],
  [
    'canArchiveSlide',
    ['manageOrganizationArchivals'],
    (a) => menu.canArchiveSlide(a, slide),
    (a) => menu.canArchiveSlide(a, slide),
  ],
  [
    'canCreateScanGroup',
    ['createOrganizationLabels'],
    (a) => menu.canCreateScanGroup(a, me),
    (a) => menu.canCreateScanGroup(a, me),
  ],
  [
    'canCreateScanOrder',
    ['createOrganizationOrders'],
    (a) => menu.canCreateScanOrder(a, me),
    (a) => menu.canCreateScanOrder(a, me),
  ],
  [
    'canUploadImages',
    ['uploadOrganizationImages'],
    (a) => menu.canUploadImages(a, me),
    (a) => menu.canUploadImages(a, me),
  ],
  ['canCreateTeam', ['createTeams'], (a) => menu.canCreateTeam(a), (a) => menu.canCreateTeam(a)],
  [
    'canOpenAdministrator',
    ['modifyOrganizationUsers'],
    (a) => menu.canOpenAdministrator(a),
    (a) => menu.canOpenAdministrator(a),
  ],
  [
    'annotationToCreate',
    ['manageOrganizationAnnotations'],
    (a) => a.can('create', menu.annotationToCreate(me)),
    (a) => a.can('create', menu.annotationToCreate(me)),
  ],
  [
    'canViewAdminArea(teams)',
    ['modifyTeams'],
    (a) => menu.canViewAdminArea(a, 'teams'),
    (a) => menu.canViewAdminArea(a, 'teams'),
  ],
];

describe('menu checks', () => {
  it.each(table)('should allow %s with its policy', (_n, policies, pass) => {
    expect(pass(abilityOf(policies))).toBe(true);
  });
  it.each(table)('should deny %s without it', (_n, _p, _pass, fail) => {
    expect(fail(abilityOf([]))).toBe(false);
  });

  it('should deny downloading an image that is not active even with the policy', () => {
    expect(
      menu.canDownloadImage(abilityOf(['manageOrganizationSlides']), {
        ...activeImage,
        storageStatus: 'archived',
      }),
    ).toBe(false);
  });

  it('should tell whether a person may share studies, by their own effective policies', () => {
    const person = (policies: readonly Policy[], orgEnabled: readonly Policy[] = policies) => ({
      user: { id: PEER, organizationId: LAB, enabledPolicies: policies },
      organization: {
        id: LAB,
        rootId: LAB,
        parentIds: [],
        childIds: [],
        enabledPolicies: orgEnabled,
        availablePolicies: orgEnabled,
      },
    });
    expect(menu.canShareStudies(person(['manageOrganizationStudies']))).toBe(true);
    expect(menu.canShareStudies(person(['superAdmin']))).toBe(true);
    expect(menu.canShareStudies(person(['createOrganizationOrders']))).toBe(false);
    // Enabled for the user but not by the organization: no.
    expect(menu.canShareStudies(person(['manageOrganizationStudies'], []))).toBe(false);
  });

  it("should say a denied annotation with the spec's create text", () => {
    expect(denialTooltip(abilityOf([]), 'create', menu.annotationToCreate(me))?.message).toBe(
      "You don't have permissions to create",
    );
  });

  it('should build the create-study tooltip of §5 verbatim', () => {
    expect(denialTooltip(abilityOf([]), 'create', 'Study')).toEqual({
      message: 'You do not have permission to create a study',
      hint: 'Please contact your organization administrator to request access.',
    });
    expect(denialTooltip(abilityOf(['manageOrganizationStudies']), 'create', 'Study')).toBeUndefined();
  });
});
