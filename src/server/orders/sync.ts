// Scan orders and scan order lists in the sync feed (DESIGN "Pull"), readable per src/access scopes.
import { scanOrderLists, scanOrders } from '../db/schema';
import type { SyncSource } from '../sync/kinds';
import {
  scanOrderListScope,
  scanOrderScope,
  toScanOrder,
  toScanOrderList,
  type ScanOrderListRow,
  type ScanOrderRow,
} from './entities';

export const orderSyncSources: readonly SyncSource[] = [
  {
    kind: 'scan-orders',
    type: 'ScanOrder',
    table: scanOrders,
    idColumn: scanOrders.id,
    changeSeqColumn: scanOrders.changeSeq,
    scope: scanOrderScope,
    toEntities: async (_db, rows) => rows.map((r) => toScanOrder(r as ScanOrderRow)),
  },
  {
    kind: 'scan-order-lists',
    type: 'ScanOrderList',
    table: scanOrderLists,
    idColumn: scanOrderLists.id,
    changeSeqColumn: scanOrderLists.changeSeq,
    scope: scanOrderListScope,
    toEntities: async (_db, rows) => rows.map((r) => toScanOrderList(r as ScanOrderListRow)),
  },
];
