// §6.2 rules for slides (scan groups), their images, scan orders, order lists and alignments.
import { AccessText } from '../api/access-messages';
import { Denied } from '../api/messages';
import type { ResolvedActor } from './actor';
import type { Builder } from './ability-types';

/**
 * The field of an image that stands for its viewer pyramid (descriptors, tiles, layers): read on its
 * own, apart from the row and its thumbnail and label, by the tile route.
 */
export const IMAGE_PYRAMID_FIELD = 'pyramid';
/** Sharing a slide is updating these (§7 "Share image"). */
export const SLIDE_SHARE_FIELDS = ['assigneeUserIds', 'assigneeOrgIds'];
/** The upload fields of an image (§4.5): written while the file is transferred. */
export const IMAGE_UPLOAD_FIELDS = ['info.uploadStart', 'info.uploadEnd', 'info.size'];
/** A scan order list's creator manages its contents. */
export const ORDER_LIST_FIELDS = [
  'status',
  'scanOrderIds',
  'expiration',
  'assigneeUserIds',
  'assigneeOrgIds',
];

const FULL = ['create', 'read', 'update', 'delete', 'share', 'print'] as const;

export function slideRules({ can }: Builder, a: ResolvedActor): void {
  const mine = { $in: a.orgAndTeams };

  if (a.superAdmin) can([...FULL], ['ScanGroup', 'ScanOrder', 'Image', 'AlignmentRigid']);
  // Stopping an image's processing: a super admin, the organization's administrators (who may modify
  // it) and slide managers, its uploader (docs/decisions.md "Cancelling processing").
  if (a.superAdmin) can('cancel', 'Image');
  can('cancel', 'Image', { creatorUserId: a.userId });
  if (a.has('modifyOrganization')) can('cancel', 'Image', { organizationId: mine });
  if (a.has('platformScanManagement')) {
    can('manage', ['ScanGroup', 'ScanOrder', 'ScanOrderList', 'Image', 'AlignmentRigid']);
  }

  if (a.has('createOrganizationLabels')) can('create', 'ScanGroup', { organizationId: a.orgId });

  // archiveAt: the creator while still assigned, or the organization's archivist.
  can('update', 'ScanGroup', ['archiveAt'], { creatorUserId: a.userId, assigneeUserIds: a.userId });
  can('update', 'ScanGroup', ['archiveAt'], { creatorUserId: a.userId, assigneeOrgIds: mine });
  if (a.has('manageOrganizationArchivals')) {
    can('update', 'ScanGroup', ['archiveAt'], { organizationId: mine });
  }

  // manageOrganizationSlides: the organization's (and child teams') slides and images.
  if (a.has('manageOrganizationSlides')) {
    can(['share', 'print'], 'ScanGroup', { organizationId: mine });
    can('update', 'ScanGroup', SLIDE_SHARE_FIELDS, { organizationId: mine });
    can(['download', 'print', 'cancel'], 'Image', { organizationId: mine });
  }

  if (a.has('createOrganizationOrders')) {
    can('create', ['ScanOrder', 'ScanOrderList'], { organizationId: a.orgId });
    // §4.5: only to active, only in the own organization. `next` holds the proposed values.
    can('update', 'ScanOrder', ['status'], { organizationId: a.orgId, 'next.status': 'active' });
    can('update', 'ScanOrderList', ORDER_LIST_FIELDS, { creatorUserId: a.userId });
  }

  if (a.has('uploadOrganizationImages')) {
    can('create', 'Image', { organizationId: a.orgId });
    can('update', 'Image', IMAGE_UPLOAD_FIELDS, { creatorUserId: a.userId });
  }

  if (a.has('createOrganizationAlignments')) can('create', 'AlignmentRigid', { organizationId: a.orgId });
}

/** Added last: they hold for everyone, super admins included. */
export function slideDenials({ cannot }: Builder, a: ResolvedActor): void {
  const notMe = { $ne: a.userId };
  const inactive = { $ne: 'active' };
  cannot('create', 'ScanGroup', { creatorUserId: notMe }).because(Denied.scanGroupsForYourself);
  cannot('create', ['ScanOrder', 'ScanOrderList'], { creatorUserId: notMe }).because(
    Denied.scanOrdersForYourself,
  );
  cannot('create', 'Image', { creatorUserId: notMe }).because(Denied.imagesForYourself);
  cannot('create', 'AlignmentRigid', { creatorUserId: notMe }).because(AccessText.alignmentsForYourself);

  // §4.5: status, displayStatus, upload and download only while the image's storage is active.
  cannot('create', 'Image', { storageStatus: inactive }).because(Denied.uploadActiveImages);
  cannot('update', 'Image', IMAGE_UPLOAD_FIELDS, { storageStatus: inactive }).because(
    Denied.uploadActiveImages,
  );
  cannot('download', 'Image', { storageStatus: inactive }).because(Denied.downloadActiveImages);
  cannot('update', 'Image', ['status'], { storageStatus: inactive }).because(Denied.updateStatusActiveImages);
  cannot('update', 'Image', ['displayStatus'], { storageStatus: inactive }).because(
    Denied.updateDisplayStatusActiveImages,
  );

  // §4.2: archived slides have no viewer, so an image's pyramid is served only while its storage is
  // active; its thumbnail and label stay readable (docs/decisions.md "Tile access").
  cannot('read', 'Image', [IMAGE_PYRAMID_FIELD], { storageStatus: inactive }).because(
    AccessText.viewActiveImages,
  );

  // §5: the traceback is for super admins only, whatever else grants the image.
  if (!a.superAdmin) cannot(['read', 'create', 'update'], 'Image', ['info.traceback']);
}
