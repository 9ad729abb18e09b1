// Requests of the scan order and scan order list calls (spec §3, §4.1, §4.5, §7).
import { z } from 'zod';
import { NOTES_MAX } from './constants';
import { Id } from './common';
import { ScanOrderStatuses } from './enums';
import { OrderDirection, isoDateParam, pageParams, repeated } from './lists';
import { createBody, setOps } from './organizations';
import { SET_FIELDS } from './set-fields';

const ids = z.array(Id).max(500);
const notes = z.string().max(NOTES_MAX, `Notes are at most ${NOTES_MAX} characters`);
const orderListPage = {
  ...pageParams(100, 10),
  orderBy: z.enum(['createdAt', 'updatedAt']).default('createdAt'),
  status: repeated(z.enum(ScanOrderStatuses)),
  organizationId: repeated(Id),
  creatorUserId: repeated(Id),
  id: repeated(Id),
};

// ---- Scan orders ------------------------------------------------------------------------------

export const ScanOrderCreate = z.strictObject({
  pipelineId: Id,
  scanGroupId: Id.nullable().optional(),
  studyIds: ids.optional(),
  notes: notes.optional(),
  /** Filled with the caller's; another user's id is refused ('You can only create scan orders for yourself'). */
  creatorUserId: Id.optional(),
  organizationId: Id.optional(),
  assigneeUserIds: ids.optional(),
  assigneeOrgIds: ids.optional(),
});
export const ScanOrderCreateBody = createBody('scanOrder', ScanOrderCreate);

export const ScanOrderPatch = z
  .strictObject({
    status: z.enum(ScanOrderStatuses),
    notes,
    pipelineId: Id,
    scanGroupId: Id.nullable(),
    studyIds: ids,
    assigneeUserIds: ids,
    assigneeOrgIds: ids,
  })
  .partial();
export const ScanOrderPatchBody = z.strictObject({
  scanOrder: ScanOrderPatch.optional(),
  ...setOps(SET_FIELDS.scanOrders),
});

export const ScanOrderListQuery = z.object({
  ...orderListPage,
  scanGroupId: repeated(Id),
  pipelineId: repeated(Id),
  studyId: repeated(Id),
});

// ---- Scan order lists -------------------------------------------------------------------------

export const ScanOrderListCreate = z.strictObject({
  /** §4.1: "A new scan order list is created as active". */
  status: z.literal('active', { message: 'A new scan order list is created as active' }).optional(),
  creatorUserId: Id.optional(),
  organizationId: Id.optional(),
  assigneeUserIds: ids.optional(),
  assigneeOrgIds: ids.optional(),
  scanOrderIds: ids.optional(),
  expiration: isoDateParam.nullable().optional(),
  orderBy: z.string().max(50).nullable().optional(),
  orderDirection: OrderDirection.nullable().optional(),
});
export const ScanOrderListCreateBody = createBody('scanOrderList', ScanOrderListCreate);

export const ScanOrderListPatch = z
  .strictObject({
    status: z.enum(ScanOrderStatuses),
    scanOrderIds: ids,
    assigneeUserIds: ids,
    assigneeOrgIds: ids,
    expiration: isoDateParam.nullable(),
    orderBy: z.string().max(50).nullable(),
    orderDirection: OrderDirection.nullable(),
  })
  .partial();
export const ScanOrderListPatchBody = z.strictObject({
  scanOrderList: ScanOrderListPatch.optional(),
  ...setOps(SET_FIELDS.scanOrderLists),
});

export const ScanOrderListListQuery = z.object({ ...orderListPage, scanOrderId: repeated(Id) });
