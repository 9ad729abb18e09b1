// §6.2 rules for studies, reviews and QC, annotations, and the personal kinds.
import { describe, expect, it } from 'vitest';
import { asSubject, authorizeCreate, authorizeUpdate, denialMessage } from '../../../src/access';
import { abilityOf, allows, title, type Case, LAB, ME, OUT, PEER, TEAM } from './fixtures';

const mineStudy = { organizationId: LAB, creatorUserId: ME, assigneeUserIds: [ME], assigneeOrgIds: [LAB] };
const sharedToMe = {
  organizationId: OUT,
  creatorUserId: 'u-out',
  assigneeUserIds: [ME],
  assigneeOrgIds: [OUT],
};
const notAssigned = {
  organizationId: OUT,
  creatorUserId: 'u-out',
  assigneeUserIds: ['u-out'],
  assigneeOrgIds: [OUT],
};
const S = ['manageOrganizationStudies'] as const;

const cases: Case[] = [
  // Studies: read and tag when an assignee.
  {
    name: 'reading a foreign study shared with the user',
    action: 'read',
    type: 'Study',
    row: sharedToMe,
    allow: true,
  },
  {
    name: 'reading a foreign study shared with a child team',
    action: 'read',
    type: 'Study',
    row: { ...notAssigned, assigneeOrgIds: [TEAM] },
    allow: true,
  },
  {
    name: 'reading a foreign study not shared',
    action: 'read',
    type: 'Study',
    row: notAssigned,
    allow: false,
  },
  {
    name: 'updating tags of a study shared with the user',
    action: 'update',
    type: 'Study',
    row: sharedToMe,
    field: 'tags',
    allow: true,
  },
  {
    name: "updating tags of a study shared with the user's organization",
    action: 'update',
    type: 'Study',
    row: { ...notAssigned, assigneeOrgIds: [LAB] },
    field: 'tags',
    allow: true,
  },
  {
    name: 'updating tags of a study not shared',
    action: 'update',
    type: 'Study',
    row: notAssigned,
    field: 'tags',
    allow: false,
  },
  {
    name: 'updating the name of a shared study without manageOrganizationStudies',
    action: 'update',
    type: 'Study',
    row: sharedToMe,
    field: 'name',
    allow: false,
  },
  // manageOrganizationStudies: create, update and print the listed fields when an assignee.
  {
    name: 'creating a study with manageOrganizationStudies',
    policies: S,
    action: 'create',
    type: 'Study',
    row: mineStudy,
    allow: true,
  },
  {
    name: 'creating a study without manageOrganizationStudies',
    action: 'create',
    type: 'Study',
    row: mineStudy,
    allow: false,
  },
  {
    name: 'creating a study without being its assignee',
    policies: S,
    action: 'create',
    type: 'Study',
    row: { ...mineStudy, assigneeUserIds: [PEER] },
    allow: false,
  },
  {
    name: 'creating a study for someone else',
    policies: [...S, 'superAdmin'],
    action: 'create',
    type: 'Study',
    row: { ...mineStudy, creatorUserId: PEER },
    allow: false,
  },
  {
    name: 'creating a study with its viewerOptions',
    policies: S,
    action: 'create',
    type: 'Study',
    row: mineStudy,
    field: 'viewerOptions',
    allow: false,
  },
  ...['name', 'scanGroupIds', 'tags', 'assigneeUserIds', 'assigneeOrgIds'].map((field): Case => ({
    name: `updating ${field} of a shared study with manageOrganizationStudies`,
    policies: S,
    action: 'update',
    type: 'Study',
    row: sharedToMe,
    field,
    allow: true,
  })),
  {
    name: 'updating viewerOptions of a shared study with manageOrganizationStudies',
    policies: S,
    action: 'update',
    type: 'Study',
    row: sharedToMe,
    field: 'viewerOptions',
    allow: false,
  },
  {
    name: 'updating the name of a study not shared with manageOrganizationStudies',
    policies: S,
    action: 'update',
    type: 'Study',
    row: notAssigned,
    field: 'name',
    allow: false,
  },
  {
    name: 'printing a shared study with manageOrganizationStudies',
    policies: S,
    action: 'print',
    type: 'Study',
    row: sharedToMe,
    allow: true,
  },
  {
    name: 'printing a shared study without manageOrganizationStudies',
    action: 'print',
    type: 'Study',
    row: sharedToMe,
    allow: false,
  },
  {
    name: 'sharing a shared study with manageOrganizationStudies',
    policies: S,
    action: 'share',
    type: 'Study',
    row: sharedToMe,
    allow: true,
  },
  {
    name: 'deleting an own-organization study with manageOrganizationStudies',
    policies: S,
    action: 'delete',
    type: 'Study',
    row: { ...mineStudy, creatorUserId: PEER },
    allow: true,
  },
  {
    name: 'deleting a foreign study the user created with manageOrganizationStudies',
    policies: S,
    action: 'delete',
    type: 'Study',
    row: { ...notAssigned, creatorUserId: ME },
    allow: true,
  },
  {
    name: 'deleting a foreign shared study with manageOrganizationStudies',
    policies: S,
    action: 'delete',
    type: 'Study',
    row: sharedToMe,
    allow: false,
  },
  {
    name: 'deleting an own study without manageOrganizationStudies',
    action: 'delete',
    type: 'Study',
    row: mineStudy,
    allow: false,
  },
  {
    name: 'updating any study with platformExperimentManagement',
    policies: ['platformExperimentManagement'],
    action: 'update',
    type: 'Study',
    row: notAssigned,
    field: 'viewerOptions',
    allow: true,
  },
  // Reviews: comments by anyone; standard with manageOrganizationReview; QC with manageOrganizationQC.
  {
    name: 'creating a completed comment review',
    action: 'create',
    type: 'Review',
    row: { type: 'comment', status: 'completed', organizationId: LAB, creatorUserId: ME },
    allow: true,
  },
  {
    name: 'creating a pending comment review',
    action: 'create',
    type: 'Review',
    row: { type: 'comment', status: 'pending', organizationId: LAB, creatorUserId: ME },
    allow: false,
  },
  {
    name: "updating one's own comment's status",
    action: 'update',
    type: 'Review',
    row: { type: 'comment', creatorUserId: ME },
    field: 'status',
    allow: true,
  },
  {
    name: "updating one's own comment's visibility",
    action: 'update',
    type: 'Review',
    row: { type: 'comment', creatorUserId: ME },
    field: 'visibility',
    allow: true,
  },
  {
    name: "updating one's own comment's imageId",
    action: 'update',
    type: 'Review',
    row: { type: 'comment', creatorUserId: ME },
    field: 'imageId',
    allow: false,
  },
  {
    name: "updating a peer's comment",
    action: 'update',
    type: 'Review',
    row: { type: 'comment', creatorUserId: PEER },
    field: 'comment',
    allow: false,
  },
  {
    name: 'creating a pending standard review with manageOrganizationReview',
    policies: ['manageOrganizationReview'],
    action: 'create',
    type: 'Review',
    row: { type: 'standard', status: 'pending', organizationId: LAB, creatorUserId: ME },
    allow: true,
  },
  {
    name: 'creating a pending standard review without manageOrganizationReview',
    action: 'create',
    type: 'Review',
    row: { type: 'standard', status: 'pending', organizationId: LAB, creatorUserId: ME },
    allow: false,
  },
  {
    name: 'creating a completed standard review with manageOrganizationReview',
    policies: ['manageOrganizationReview'],
    action: 'create',
    type: 'Review',
    row: { type: 'standard', status: 'completed', organizationId: LAB, creatorUserId: ME },
    allow: false,
  },
  {
    name: 'creating a review for someone else',
    policies: ['manageOrganizationReview'],
    action: 'create',
    type: 'Review',
    row: { type: 'standard', status: 'pending', organizationId: LAB, creatorUserId: PEER },
    allow: false,
  },
  {
    name: "updating the comment of one's pending standard review",
    policies: ['manageOrganizationReview'],
    action: 'update',
    type: 'Review',
    row: { type: 'standard', status: 'pending', creatorUserId: ME },
    field: 'comment',
    allow: true,
  },
  {
    name: "updating the comment of one's completed standard review",
    policies: ['manageOrganizationReview'],
    action: 'update',
    type: 'Review',
    row: { type: 'standard', status: 'completed', creatorUserId: ME },
    field: 'comment',
    allow: false,
  },
  {
    name: 'completing a pending review as its reviewer',
    action: 'update',
    type: 'Review',
    row: { type: 'standard', status: 'pending', reviewerId: ME, next: { status: 'completed' } },
    field: 'status',
    allow: true,
  },
  {
    name: 'accepting a pending standard review as its reviewer',
    action: 'update',
    type: 'Review',
    row: { type: 'standard', status: 'pending', reviewerId: ME, next: { status: 'accepted' } },
    field: 'status',
    allow: false,
  },
  {
    name: "completing a pending review as someone else's reviewer",
    action: 'update',
    type: 'Review',
    row: { type: 'standard', status: 'pending', reviewerId: PEER, next: { status: 'completed' } },
    field: 'status',
    allow: false,
  },
  ...['accepted', 'rejected', 'flagged'].map((status): Case => ({
    name: `creating a QC review ${status} with manageOrganizationQC`,
    policies: ['manageOrganizationQC'],
    action: 'create',
    type: 'Review',
    row: { type: 'qc', status: status as 'accepted', organizationId: LAB, creatorUserId: ME },
    allow: true,
  })),
  {
    name: 'creating a QC review accepted without manageOrganizationQC',
    policies: ['manageOrganizationReview'],
    action: 'create',
    type: 'Review',
    row: { type: 'qc', status: 'accepted', organizationId: LAB, creatorUserId: ME },
    allow: false,
  },
  {
    name: 'creating a QC review completed with manageOrganizationQC',
    policies: ['manageOrganizationQC'],
    action: 'create',
    type: 'Review',
    row: { type: 'qc', status: 'completed', organizationId: LAB, creatorUserId: ME },
    allow: false,
  },
  {
    name: "setting a team's QC review to flagged with manageOrganizationQC",
    policies: ['manageOrganizationQC'],
    action: 'update',
    type: 'Review',
    row: { type: 'qc', status: 'pending', organizationId: TEAM, next: { status: 'flagged' } },
    field: 'status',
    allow: true,
  },
  {
    name: 'setting a QC review to completed with manageOrganizationQC',
    policies: ['manageOrganizationQC'],
    action: 'update',
    type: 'Review',
    row: { type: 'qc', status: 'pending', organizationId: LAB, next: { status: 'completed' } },
    field: 'status',
    allow: false,
  },
  {
    name: 'setting a foreign QC review to rejected as its reviewer',
    policies: ['manageOrganizationQC'],
    action: 'update',
    type: 'Review',
    row: { type: 'qc', status: 'pending', organizationId: OUT, reviewerId: ME, next: { status: 'rejected' } },
    field: 'status',
    allow: true,
  },
  {
    name: 'setting a foreign QC review to rejected',
    policies: ['manageOrganizationQC'],
    action: 'update',
    type: 'Review',
    row: {
      type: 'qc',
      status: 'pending',
      organizationId: OUT,
      reviewerId: PEER,
      next: { status: 'rejected' },
    },
    field: 'status',
    allow: false,
  },
  {
    name: 'setting a QC review to accepted without manageOrganizationQC',
    action: 'update',
    type: 'Review',
    row: { type: 'qc', status: 'pending', organizationId: LAB, reviewerId: ME, next: { status: 'accepted' } },
    field: 'status',
    allow: false,
  },
  // Review reading: public ones by assignees; private ones by author and reviewer.
  {
    name: 'reading a public review assigned to the user',
    action: 'read',
    type: 'Review',
    row: { organizationId: OUT, visibility: 'public', assigneeUserIds: [ME] },
    allow: true,
  },
  {
    name: 'reading a private review assigned to the user',
    action: 'read',
    type: 'Review',
    row: { organizationId: OUT, visibility: 'private', assigneeUserIds: [ME] },
    allow: false,
  },
  {
    name: 'reading a private review of the own organization',
    action: 'read',
    type: 'Review',
    row: { organizationId: LAB, visibility: 'private', creatorUserId: PEER },
    allow: false,
  },
  {
    name: "reading one's own private review",
    action: 'read',
    type: 'Review',
    row: { organizationId: LAB, visibility: 'private', creatorUserId: ME },
    allow: true,
  },
  {
    name: 'reading a private review one is the reviewer of',
    action: 'read',
    type: 'Review',
    row: { organizationId: OUT, visibility: 'private', reviewerId: ME },
    allow: true,
  },
  // Annotations.
  {
    name: 'creating an annotation in the own organization with manageOrganizationAnnotations',
    policies: ['manageOrganizationAnnotations'],
    action: 'create',
    type: 'Annotation',
    row: { organizationId: LAB, creatorUserId: ME },
    allow: true,
  },
  {
    name: 'creating an annotation in a child team',
    policies: ['manageOrganizationAnnotations'],
    action: 'create',
    type: 'Annotation',
    row: { organizationId: TEAM, creatorUserId: ME },
    allow: false,
  },
  {
    name: 'creating an annotation without manageOrganizationAnnotations',
    action: 'create',
    type: 'Annotation',
    row: { organizationId: LAB, creatorUserId: ME },
    allow: false,
  },
  {
    name: 'creating an annotation for someone else',
    policies: ['manageOrganizationAnnotations'],
    action: 'create',
    type: 'Annotation',
    row: { organizationId: LAB, creatorUserId: PEER },
    allow: false,
  },
  {
    name: "updating the content of one's own annotation",
    policies: ['manageOrganizationAnnotations'],
    action: 'update',
    type: 'Annotation',
    row: { creatorUserId: ME },
    field: 'content',
    allow: true,
  },
  {
    name: "updating the name of one's own annotation",
    policies: ['manageOrganizationAnnotations'],
    action: 'update',
    type: 'Annotation',
    row: { creatorUserId: ME },
    field: 'name',
    allow: false,
  },
  {
    name: "updating the content of a peer's annotation",
    policies: ['manageOrganizationAnnotations'],
    action: 'update',
    type: 'Annotation',
    row: { creatorUserId: PEER },
    field: 'content',
    allow: false,
  },
  // Personal kinds and catalogue.
  {
    name: 'creating a heart reaction',
    action: 'create',
    type: 'Reaction',
    row: { organizationId: LAB, creatorUserId: ME },
    allow: true,
  },
  {
    name: 'creating a reaction for someone else',
    action: 'create',
    type: 'Reaction',
    row: { organizationId: LAB, creatorUserId: PEER },
    allow: false,
  },
  {
    name: "deleting one's own reaction",
    action: 'delete',
    type: 'Reaction',
    row: { creatorUserId: ME },
    allow: true,
  },
  {
    name: "deleting a peer's reaction",
    action: 'delete',
    type: 'Reaction',
    row: { creatorUserId: PEER },
    allow: false,
  },
  {
    name: "updating one's viewer settings",
    action: 'update',
    type: 'UserViewerSettings',
    row: { creatorUserId: ME },
    field: 'viewerSettings.gamma',
    allow: true,
  },
  {
    name: "reading a peer's viewer settings",
    action: 'read',
    type: 'UserViewerSettings',
    row: { creatorUserId: PEER, organizationId: LAB },
    allow: false,
  },
  { name: 'reading organs', action: 'read', type: 'Organ', row: { id: 'org1' }, allow: true },
  { name: 'creating organs as a member', action: 'create', type: 'Organ', row: { id: 'org1' }, allow: false },
  {
    name: 'creating pipelines with platformExperimentManagement',
    policies: ['platformExperimentManagement'],
    action: 'create',
    type: 'Pipeline',
    row: {},
    allow: true,
  },
  {
    name: 'reading a pipeline assigned to the parent organization',
    action: 'read',
    type: 'Pipeline',
    row: { assigneeOrgIds: ['o-root'] },
    allow: true,
  },
  {
    name: 'reading a pipeline assigned elsewhere',
    action: 'read',
    type: 'Pipeline',
    row: { assigneeOrgIds: [OUT] },
    allow: false,
  },
];

describe('studies, reviews, annotations', () => {
  it.each(cases.map((c) => [title(c), c] as const))('%s', (_t, c) => {
    expect(allows(c)).toBe(c.allow);
  });
});

describe('study and review denial texts', () => {
  const ability = abilityOf([
    'manageOrganizationStudies',
    'manageOrganizationReview',
    'manageOrganizationAnnotations',
  ]);
  const table: [string, Parameters<typeof denialMessage>, string][] = [
    [
      'study for someone else',
      [ability, 'create', asSubject('Study', { ...mineStudy, creatorUserId: PEER })],
      'You can only create studies for yourself',
    ],
    [
      'review for someone else',
      [
        ability,
        'create',
        asSubject('Review', {
          type: 'standard',
          status: 'pending',
          organizationId: LAB,
          creatorUserId: PEER,
        }),
      ],
      'You can only create reviews for yourself',
    ],
    [
      'annotation for someone else',
      [ability, 'create', asSubject('Annotation', { organizationId: LAB, creatorUserId: PEER })],
      'You can only create annotations for yourself',
    ],
    [
      'study without the policy',
      [abilityOf([]), 'create', 'Study'],
      'You do not have permission to create a study',
    ],
    [
      'review without the policy',
      [
        abilityOf([]),
        'create',
        asSubject('Review', { type: 'standard', status: 'pending', organizationId: LAB, creatorUserId: ME }),
      ],
      'You do not have permission to request a review',
    ],
    [
      'slide label without the policy',
      [abilityOf([]), 'create', 'ScanGroup'],
      'You dont have permission to create a new slide label.',
    ],
    [
      'order without the policy',
      [abilityOf([]), 'create', 'ScanOrder'],
      'You dont have permission to create a new order.',
    ],
    [
      'team without the policy',
      [abilityOf([]), 'create', 'Organization'],
      "You don't have permissions to create",
    ],
  ];
  it.each(table)('should explain a denied %s with the spec text', (_n, args, text) => {
    expect(denialMessage(...args)).toBe(text);
  });

  it('should give no text when the action is allowed', () => {
    expect(denialMessage(ability, 'create', asSubject('Study', mineStudy))).toBeUndefined();
  });

  it('should give the generic text for a denial without a spec text', () => {
    expect(denialMessage(abilityOf([]), 'delete', asSubject('Study', mineStudy))).toBe(
      'You do not have permission to do this',
    );
  });
});

describe('study updates through fields.ts', () => {
  it('should let another assignee remove a member and deny a stranger adding themselves', () => {
    const ability = abilityOf(['manageOrganizationStudies']);
    const study = { ...sharedToMe, assigneeUserIds: [ME, PEER] };
    expect(authorizeUpdate(ability, 'Study', study, { assigneeUserIds: [ME] })).toEqual({ ok: true });
    expect(authorizeUpdate(ability, 'Study', notAssigned, { assigneeUserIds: ['u-out', ME] })).toMatchObject({
      ok: false,
    });
  });

  it('should create a study from body fields but refuse viewerOptions in the body', () => {
    const ability = abilityOf(['manageOrganizationStudies']);
    const row = { ...mineStudy, status: 'created', name: 'S' };
    expect(authorizeCreate(ability, 'Study', row, ['name', 'tags', 'creatorUserId'])).toEqual({ ok: true });
    expect(authorizeCreate(ability, 'Study', row, ['name', 'viewerOptions'])).toMatchObject({
      ok: false,
      field: 'viewerOptions',
    });
  });
});
