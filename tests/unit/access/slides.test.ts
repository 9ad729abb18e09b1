// §6.2 rules for slides (scan groups), images, scan orders and alignments; §4.5 storage limits.
import { describe, expect, it } from 'vitest';
import { asSubject, authorizeCreate, authorizeUpdate, denialMessage, redactImage } from '../../../src/access';
import { abilityOf, allows, title, type Case, LAB, ME, OUT, PEER, TEAM } from './fixtures';

const userAssignee = {
  assigneeType: 'User' as const,
  assigneeId: ME,
  sourceType: 'Study',
  sourceId: 's1',
  count: 1,
};
const orgAssignee = {
  assigneeType: 'Organization' as const,
  assigneeId: LAB,
  sourceType: 'Study',
  sourceId: 's1',
  count: 1,
};
const foreign = { organizationId: OUT, creatorUserId: 'u-out' };

const cases: Case[] = [
  // Scan groups readable when assigned to the user, their organization or child teams, or by inheritance.
  {
    name: 'reading a foreign slide assigned to the user',
    action: 'read',
    type: 'ScanGroup',
    row: { ...foreign, assigneeUserIds: [ME] },
    allow: true,
  },
  {
    name: 'reading a foreign slide assigned to a child team',
    action: 'read',
    type: 'ScanGroup',
    row: { ...foreign, assigneeOrgIds: [TEAM] },
    allow: true,
  },
  {
    name: 'reading a foreign slide inherited from a study shared with the user',
    action: 'read',
    type: 'ScanGroup',
    row: { ...foreign, inheritedAssignees: [userAssignee] },
    allow: true,
  },
  {
    name: "reading a foreign slide inherited from a study shared with the user's organization",
    action: 'read',
    type: 'ScanGroup',
    row: { ...foreign, inheritedAssignees: [orgAssignee] },
    allow: true,
  },
  {
    name: 'reading a slide owned by a child team',
    action: 'read',
    type: 'ScanGroup',
    row: { organizationId: TEAM, creatorUserId: 'x' },
    allow: true,
  },
  {
    name: 'reading a foreign slide assigned to someone else',
    action: 'read',
    type: 'ScanGroup',
    row: {
      ...foreign,
      assigneeUserIds: [PEER],
      assigneeOrgIds: [OUT],
      inheritedAssignees: [{ assigneeType: 'Organization', assigneeId: OUT }],
    },
    allow: false,
  },
  {
    name: 'reading a foreign slide whose inherited user id is an org id',
    action: 'read',
    type: 'ScanGroup',
    row: { ...foreign, inheritedAssignees: [{ assigneeType: 'Organization', assigneeId: ME }] },
    allow: false,
  },
  {
    name: 'reading a foreign slide with platformScanManagement',
    policies: ['platformScanManagement'],
    action: 'read',
    type: 'ScanGroup',
    row: foreign,
    allow: true,
  },
  // createOrganizationLabels: own organization.
  {
    name: 'creating a slide label for the own organization with createOrganizationLabels',
    policies: ['createOrganizationLabels'],
    action: 'create',
    type: 'ScanGroup',
    row: { organizationId: LAB, creatorUserId: ME },
    allow: true,
  },
  {
    name: 'creating a slide label for a child team with createOrganizationLabels',
    policies: ['createOrganizationLabels'],
    action: 'create',
    type: 'ScanGroup',
    row: { organizationId: TEAM, creatorUserId: ME },
    allow: false,
  },
  {
    name: 'creating a slide label without createOrganizationLabels',
    action: 'create',
    type: 'ScanGroup',
    row: { organizationId: LAB, creatorUserId: ME },
    allow: false,
  },
  {
    name: 'creating a slide label for someone else',
    policies: ['createOrganizationLabels', 'superAdmin'],
    action: 'create',
    type: 'ScanGroup',
    row: { organizationId: LAB, creatorUserId: PEER },
    allow: false,
  },
  // archiveAt: creator if assigned, or manageOrganizationArchivals in the organization and child teams.
  {
    name: "updating archiveAt of one's own assigned slide",
    action: 'update',
    type: 'ScanGroup',
    row: { organizationId: LAB, creatorUserId: ME, assigneeUserIds: [ME] },
    field: 'archiveAt',
    allow: true,
  },
  {
    name: "updating archiveAt of one's own slide assigned to the organization",
    action: 'update',
    type: 'ScanGroup',
    row: { organizationId: LAB, creatorUserId: ME, assigneeOrgIds: [LAB] },
    field: 'archiveAt',
    allow: true,
  },
  {
    name: "updating archiveAt of one's own slide no longer assigned",
    action: 'update',
    type: 'ScanGroup',
    row: { organizationId: OUT, creatorUserId: ME, assigneeUserIds: [PEER], assigneeOrgIds: [OUT] },
    field: 'archiveAt',
    allow: false,
  },
  {
    name: "updating archiveAt of a peer's slide without manageOrganizationArchivals",
    action: 'update',
    type: 'ScanGroup',
    row: { organizationId: LAB, creatorUserId: PEER, assigneeUserIds: [ME] },
    field: 'archiveAt',
    allow: false,
  },
  {
    name: "updating archiveAt of a team's slide with manageOrganizationArchivals",
    policies: ['manageOrganizationArchivals'],
    action: 'update',
    type: 'ScanGroup',
    row: { organizationId: TEAM, creatorUserId: PEER },
    field: 'archiveAt',
    allow: true,
  },
  {
    name: 'updating archiveAt of a foreign slide with manageOrganizationArchivals',
    policies: ['manageOrganizationArchivals'],
    action: 'update',
    type: 'ScanGroup',
    row: { ...foreign, assigneeUserIds: [ME] },
    field: 'archiveAt',
    allow: false,
  },
  {
    name: "updating notes of one's own slide (only archiveAt is given)",
    policies: ['manageOrganizationArchivals'],
    action: 'update',
    type: 'ScanGroup',
    row: { organizationId: LAB, creatorUserId: ME, assigneeUserIds: [ME] },
    field: 'notes',
    allow: false,
  },
  // manageOrganizationSlides: share, assignees, print, download.
  {
    name: 'sharing an organization slide with manageOrganizationSlides',
    policies: ['manageOrganizationSlides'],
    action: 'share',
    type: 'ScanGroup',
    row: { organizationId: LAB },
    allow: true,
  },
  {
    name: 'sharing an organization slide without manageOrganizationSlides',
    action: 'share',
    type: 'ScanGroup',
    row: { organizationId: LAB, creatorUserId: ME, assigneeUserIds: [ME] },
    allow: false,
  },
  {
    name: 'sharing a foreign slide with manageOrganizationSlides',
    policies: ['manageOrganizationSlides'],
    action: 'share',
    type: 'ScanGroup',
    row: { ...foreign, assigneeUserIds: [ME] },
    allow: false,
  },
  {
    name: "updating a team slide's assigneeOrgIds with manageOrganizationSlides",
    policies: ['manageOrganizationSlides'],
    action: 'update',
    type: 'ScanGroup',
    row: { organizationId: TEAM },
    field: 'assigneeOrgIds',
    allow: true,
  },
  {
    name: "updating a slide's organId with manageOrganizationSlides",
    policies: ['manageOrganizationSlides'],
    action: 'update',
    type: 'ScanGroup',
    row: { organizationId: LAB },
    field: 'organId',
    allow: false,
  },
  {
    name: 'printing an organization slide with manageOrganizationSlides',
    policies: ['manageOrganizationSlides'],
    action: 'print',
    type: 'ScanGroup',
    row: { organizationId: LAB },
    allow: true,
  },
  {
    name: 'printing an organization slide without manageOrganizationSlides',
    action: 'print',
    type: 'ScanGroup',
    row: { organizationId: LAB },
    allow: false,
  },
  {
    name: 'downloading an active organization image with manageOrganizationSlides',
    policies: ['manageOrganizationSlides'],
    action: 'download',
    type: 'Image',
    row: { organizationId: LAB, storageStatus: 'active' },
    allow: true,
  },
  {
    name: 'downloading an active organization image without manageOrganizationSlides',
    action: 'download',
    type: 'Image',
    row: { organizationId: LAB, storageStatus: 'active' },
    allow: false,
  },
  {
    name: 'downloading an archived image with manageOrganizationSlides',
    policies: ['manageOrganizationSlides'],
    action: 'download',
    type: 'Image',
    row: { organizationId: LAB, storageStatus: 'archived' },
    allow: false,
  },
  {
    name: 'downloading an archived image with platformScanManagement',
    policies: ['platformScanManagement'],
    action: 'download',
    type: 'Image',
    row: { organizationId: LAB, storageStatus: 'archived' },
    allow: false,
  },
  {
    name: 'printing an organization image with manageOrganizationSlides',
    policies: ['manageOrganizationSlides'],
    action: 'print',
    type: 'Image',
    row: { organizationId: TEAM },
    allow: true,
  },
  // Images readable when assigned (through their slide).
  {
    name: 'reading a foreign image inherited by the user',
    action: 'read',
    type: 'Image',
    row: { ...foreign, inheritedAssignees: [userAssignee] },
    allow: true,
  },
  { name: 'reading a foreign image not assigned', action: 'read', type: 'Image', row: foreign, allow: false },
  // Uploads.
  {
    name: 'creating an active image with uploadOrganizationImages',
    policies: ['uploadOrganizationImages'],
    action: 'create',
    type: 'Image',
    row: { organizationId: LAB, creatorUserId: ME, storageStatus: 'active' },
    allow: true,
  },
  {
    name: 'creating an image without uploadOrganizationImages',
    action: 'create',
    type: 'Image',
    row: { organizationId: LAB, creatorUserId: ME, storageStatus: 'active' },
    allow: false,
  },
  {
    name: 'creating an image for another organization',
    policies: ['uploadOrganizationImages'],
    action: 'create',
    type: 'Image',
    row: { organizationId: OUT, creatorUserId: ME, storageStatus: 'active' },
    allow: false,
  },
  {
    name: 'creating an image for someone else',
    policies: ['uploadOrganizationImages'],
    action: 'create',
    type: 'Image',
    row: { organizationId: LAB, creatorUserId: PEER, storageStatus: 'active' },
    allow: false,
  },
  {
    name: 'creating an image that is not active',
    policies: ['uploadOrganizationImages'],
    action: 'create',
    type: 'Image',
    row: { organizationId: LAB, creatorUserId: ME, storageStatus: 'archived' },
    allow: false,
  },
  {
    name: 'updating the upload fields of an own active image',
    policies: ['uploadOrganizationImages'],
    action: 'update',
    type: 'Image',
    row: { creatorUserId: ME, storageStatus: 'active' },
    field: 'info.uploadEnd',
    allow: true,
  },
  {
    name: 'updating the upload fields of an own archived image',
    policies: ['uploadOrganizationImages'],
    action: 'update',
    type: 'Image',
    row: { creatorUserId: ME, storageStatus: 'archived' },
    field: 'info.uploadEnd',
    allow: false,
  },
  // Image status and displayStatus only while active (platform managers included).
  {
    name: 'updating status of an active image with platformScanManagement',
    policies: ['platformScanManagement'],
    action: 'update',
    type: 'Image',
    row: { storageStatus: 'active' },
    field: 'status',
    allow: true,
  },
  {
    name: 'updating status of an archived image with platformScanManagement',
    policies: ['platformScanManagement'],
    action: 'update',
    type: 'Image',
    row: { storageStatus: 'archived' },
    field: 'status',
    allow: false,
  },
  {
    name: 'updating displayStatus of an active image as super admin',
    policies: ['superAdmin'],
    action: 'update',
    type: 'Image',
    row: { storageStatus: 'active' },
    field: 'displayStatus',
    allow: true,
  },
  {
    name: 'updating displayStatus of a restoring image as super admin',
    policies: ['superAdmin'],
    action: 'update',
    type: 'Image',
    row: { storageStatus: 'restoring' },
    field: 'displayStatus',
    allow: false,
  },
  // Traceback: super admins only.
  {
    name: 'reading the image traceback as super admin',
    policies: ['superAdmin'],
    action: 'read',
    type: 'Image',
    row: foreign,
    field: 'info.traceback',
    allow: true,
  },
  {
    name: 'reading the image traceback with platformScanManagement',
    policies: ['platformScanManagement'],
    action: 'read',
    type: 'Image',
    row: foreign,
    field: 'info.traceback',
    allow: false,
  },
  {
    name: 'updating the image traceback with platformScanManagement',
    policies: ['platformScanManagement'],
    action: 'update',
    type: 'Image',
    row: { storageStatus: 'active' },
    field: 'info.traceback',
    allow: false,
  },
  {
    name: 'reading other image info with platformScanManagement',
    policies: ['platformScanManagement'],
    action: 'read',
    type: 'Image',
    row: foreign,
    field: 'info.size',
    allow: true,
  },
  // Scan orders.
  {
    name: 'creating a scan order for the own organization with createOrganizationOrders',
    policies: ['createOrganizationOrders'],
    action: 'create',
    type: 'ScanOrder',
    row: { organizationId: LAB, creatorUserId: ME },
    allow: true,
  },
  {
    name: 'creating a scan order without createOrganizationOrders',
    action: 'create',
    type: 'ScanOrder',
    row: { organizationId: LAB, creatorUserId: ME },
    allow: false,
  },
  {
    name: 'creating a scan order for a child team',
    policies: ['createOrganizationOrders'],
    action: 'create',
    type: 'ScanOrder',
    row: { organizationId: TEAM, creatorUserId: ME },
    allow: false,
  },
  {
    name: 'creating a scan order list for the own organization',
    policies: ['createOrganizationOrders'],
    action: 'create',
    type: 'ScanOrderList',
    row: { organizationId: LAB, creatorUserId: ME },
    allow: true,
  },
  {
    name: 'creating a scan order list for someone else',
    policies: ['createOrganizationOrders'],
    action: 'create',
    type: 'ScanOrderList',
    row: { organizationId: LAB, creatorUserId: PEER },
    allow: false,
  },
  {
    name: 'reading a foreign scan order assigned to the user',
    action: 'read',
    type: 'ScanOrder',
    row: { ...foreign, assigneeUserIds: [ME] },
    allow: true,
  },
  {
    name: 'reading a foreign scan order not assigned',
    action: 'read',
    type: 'ScanOrder',
    row: { ...foreign, assigneeUserIds: [PEER] },
    allow: false,
  },
  {
    name: 'changing an own-organization order to active',
    policies: ['createOrganizationOrders'],
    action: 'update',
    type: 'ScanOrder',
    row: { organizationId: LAB, status: 'inactive', next: { status: 'active' } },
    field: 'status',
    allow: true,
  },
  {
    name: 'changing an own-organization order to fulfilled',
    policies: ['createOrganizationOrders'],
    action: 'update',
    type: 'ScanOrder',
    row: { organizationId: LAB, status: 'active', next: { status: 'fulfilled' } },
    field: 'status',
    allow: false,
  },
  {
    name: "changing a child team's order to active",
    policies: ['createOrganizationOrders'],
    action: 'update',
    type: 'ScanOrder',
    row: { organizationId: TEAM, status: 'inactive', next: { status: 'active' } },
    field: 'status',
    allow: false,
  },
  // Alignments.
  {
    name: 'creating an alignment with createOrganizationAlignments',
    policies: ['createOrganizationAlignments'],
    action: 'create',
    type: 'AlignmentRigid',
    row: { organizationId: LAB, creatorUserId: ME },
    allow: true,
  },
  {
    name: 'creating an alignment without createOrganizationAlignments',
    action: 'create',
    type: 'AlignmentRigid',
    row: { organizationId: LAB, creatorUserId: ME },
    allow: false,
  },
  {
    name: 'creating an alignment for someone else',
    policies: ['createOrganizationAlignments'],
    action: 'create',
    type: 'AlignmentRigid',
    row: { organizationId: LAB, creatorUserId: PEER },
    allow: false,
  },
  // Super admin: no download without a slide policy (the spec lists share and print only).
  {
    name: 'sharing a foreign slide as super admin',
    policies: ['superAdmin'],
    action: 'share',
    type: 'ScanGroup',
    row: foreign,
    allow: true,
  },
  {
    name: 'downloading an active image as super admin alone',
    policies: ['superAdmin'],
    action: 'download',
    type: 'Image',
    row: { ...foreign, storageStatus: 'active' },
    allow: false,
  },
];

describe('slides, images, orders', () => {
  it.each(cases.map((c) => [title(c), c] as const))('%s', (_t, c) => {
    expect(allows(c)).toBe(c.allow);
  });
});

describe('slide denial texts', () => {
  const ability = abilityOf([
    'manageOrganizationSlides',
    'uploadOrganizationImages',
    'createOrganizationLabels',
    'createOrganizationOrders',
    'platformScanManagement',
  ]);
  const archived = asSubject('Image', { organizationId: LAB, creatorUserId: ME, storageStatus: 'archived' });
  const table: [string, Parameters<typeof denialMessage>, string][] = [
    ['download', [ability, 'download', archived], 'You can only download active images'],
    ['upload', [ability, 'create', archived], 'You can only upload active images'],
    ['upload field', [ability, 'update', archived, 'info.uploadStart'], 'You can only upload active images'],
    ['status', [ability, 'update', archived, 'status'], 'You can only update status of active images'],
    [
      'displayStatus',
      [ability, 'update', archived, 'displayStatus'],
      'You can only update display status of active images',
    ],
    [
      'image for someone else',
      [
        ability,
        'create',
        asSubject('Image', { organizationId: LAB, creatorUserId: PEER, storageStatus: 'active' }),
      ],
      'You can only create images for yourself',
    ],
    [
      'scan group for someone else',
      [ability, 'create', asSubject('ScanGroup', { organizationId: LAB, creatorUserId: PEER })],
      'You can only create scan groups for yourself',
    ],
    [
      'scan order for someone else',
      [ability, 'create', asSubject('ScanOrder', { organizationId: LAB, creatorUserId: PEER })],
      'You can only create scan orders for yourself',
    ],
  ];
  it.each(table)('should explain a denied %s with the spec text', (_n, args, text) => {
    expect(denialMessage(...args)).toBe(text);
  });
});

describe('updates and creates through fields.ts', () => {
  it('should allow an order status update to active and deny one to failed', () => {
    const ability = abilityOf(['createOrganizationOrders']);
    const order = { organizationId: LAB, status: 'inactive' as const };
    expect(authorizeUpdate(ability, 'ScanOrder', order, { status: 'active' })).toEqual({ ok: true });
    expect(authorizeUpdate(ability, 'ScanOrder', order, { status: 'failed' })).toMatchObject({
      ok: false,
      field: 'status',
    });
  });

  it('should deny a nested traceback patch and allow other info for platform scan managers', () => {
    const ability = abilityOf(['platformScanManagement']);
    const image = { organizationId: LAB, storageStatus: 'active' as const };
    expect(authorizeUpdate(ability, 'Image', image, { info: { traceback: 'x' } })).toMatchObject({
      ok: false,
      field: 'info.traceback',
    });
    expect(authorizeUpdate(ability, 'Image', image, { info: { desc: 'x' } })).toEqual({ ok: true });
  });

  it('should deny creating an image for someone else with the spec text', () => {
    const ability = abilityOf(['uploadOrganizationImages']);
    const row = { organizationId: LAB, creatorUserId: PEER, storageStatus: 'active' as const };
    expect(authorizeCreate(ability, 'Image', row)).toEqual({
      ok: false,
      message: 'You can only create images for yourself',
    });
    expect(authorizeCreate(ability, 'Image', { ...row, creatorUserId: ME })).toEqual({ ok: true });
  });

  it('should hide the traceback from non super admins and keep it for super admins', () => {
    const image = { id: 'i', organizationId: LAB, info: { traceback: 'boom', size: 3 } };
    expect(redactImage(abilityOf(['platformScanManagement']), image).info).toEqual({ size: 3 });
    expect(redactImage(abilityOf(['superAdmin']), image).info).toEqual({ traceback: 'boom', size: 3 });
    expect(image.info.traceback).toBe('boom');
  });
});
