// Requests of the scan order and scan order list calls (spec §3, §4.1, §4.5, §7).
import { z } from 'zod';
import { Id } from './common';
import { ScanOrderStatuses } from './enums';
import { OrderDirection, isoDateParam, pageParams, repeated } from './lists';
import { createBody, setOps } from './organizations';

const ids = z.array(Id).max(500);
const notes = z.string().max(2000, 'Notes are at most 2000 characters');
const orderListPage = {
  ...pageParams(100, 10),
  orderBy: z.enum(['createdAt', 'updatedAt']).default('createdAt'),
  status: repeated(z.enum(ScanOrderStatuses)),
  organizationId: repeated(Id),
  creatorUserId: repeated(Id),
  id: repeated(Id),
};

// ---- Scan orders ------------------------------------------------------------------------------

export const SCAN_ORDER_SET_FIELDS = ['studyIds', 'assigneeUserIds', 'assigneeOrgIds'] as const;

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
  ...setOps(SCAN_ORDER_SET_FIELDS),
});

export const ScanOrderListQuery = z.object({
  ...orderListPage,
  scanGroupId: repeated(Id),
  pipelineId: repeated(Id),
  studyId: repeated(Id),
});

// ---- Scan order lists -------------------------------------------------------------------------

export const SCAN_ORDER_LIST_SET_FIELDS = ['scanOrderIds', 'assigneeUserIds', 'assigneeOrgIds'] as const;

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
  ...setOps(SCAN_ORDER_LIST_SET_FIELDS),
});

export const ScanOrderListListQuery = z.object({ ...orderListPage, scanOrderId: repeated(Id) });

/** Texts of our own where the spec has none (docs/decisions.md, "Orders"). */
export const OrderText = {
  noSlide: 'scanGroupId: no such slide',
  noPipeline: 'pipelineId: no such pipeline',
  noStudy: (id: string) => `studyIds: no such study ${id}`,
  noOrder: (id: string) => `scanOrderIds: no such scan order ${id}`,
  noUser: (id: string) => `assigneeUserIds: no such user ${id}`,
  noOrganization: (id: string) => `assigneeOrgIds: no such organization ${id}`,
} as const;
