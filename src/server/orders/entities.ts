// Scan orders and scan order lists as the API returns them (spec §3), their read-scope columns, and
// their rows as access subjects.
import type { ScanOrder, ScanOrderList } from '../../api/entities';
import type { ScanOrderStatus } from '../../api/enums';
import type { ScanOrderSubject } from '../../access';
import type { ScopeColumns } from '../db/read-scope-sql';
import { scanOrderLists, scanOrders } from '../db/schema';

export type ScanOrderRow = typeof scanOrders.$inferSelect;
export type ScanOrderListRow = typeof scanOrderLists.$inferSelect;

export const scanOrderScope: ScopeColumns = {
  organizationId: scanOrders.organizationId,
  creatorUserId: scanOrders.creatorUserId,
  assigneeUserIds: scanOrders.assigneeUserIds,
  assigneeOrgIds: scanOrders.assigneeOrgIds,
};
export const scanOrderListScope: ScopeColumns = {
  organizationId: scanOrderLists.organizationId,
  creatorUserId: scanOrderLists.creatorUserId,
  assigneeUserIds: scanOrderLists.assigneeUserIds,
  assigneeOrgIds: scanOrderLists.assigneeOrgIds,
};

/** What the rules look at (status typed, `next` added by authorizeUpdate). */
export function orderSubject(r: ScanOrderRow | ScanOrderListRow): ScanOrderSubject {
  return {
    id: r.id,
    organizationId: r.organizationId,
    creatorUserId: r.creatorUserId,
    assigneeUserIds: r.assigneeUserIds,
    assigneeOrgIds: r.assigneeOrgIds,
    inheritedAssignees: r.inheritedAssignees,
    status: r.status as ScanOrderStatus,
  };
}

export function toScanOrder(r: ScanOrderRow): ScanOrder {
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    creatorUserId: r.creatorUserId,
    organizationId: r.organizationId,
    status: r.status as ScanOrderStatus,
    scanGroupId: r.scanGroupId,
    pipelineId: r.pipelineId,
    studyIds: r.studyIds,
    notes: r.notes,
    assigneeUserIds: r.assigneeUserIds,
    assigneeOrgIds: r.assigneeOrgIds,
    inheritedAssignees: r.inheritedAssignees,
  };
}

/** `assigneeIds` (§3) is every assignee, users then organizations. */
export function toScanOrderList(r: ScanOrderListRow): ScanOrderList {
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    status: r.status as ScanOrderStatus,
    creatorUserId: r.creatorUserId,
    organizationId: r.organizationId,
    assigneeIds: [...r.assigneeUserIds, ...r.assigneeOrgIds],
    assigneeUserIds: r.assigneeUserIds,
    assigneeOrgIds: r.assigneeOrgIds,
    scanOrderIds: r.scanOrderIds,
    expiration: r.expiration ? r.expiration.toISOString() : null,
    orderBy: r.orderBy,
    orderDirection: r.orderDirection,
  };
}
