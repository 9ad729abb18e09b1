// Slides in the sync feed (DESIGN "Pull"): readable per the ScanGroup read scope, inheritance included.
import { scanGroups } from '../db/schema';
import type { SyncSource } from '../sync/kinds';
import { scanGroupScope, toScanGroup, type ScanGroupRow } from './repository';

export const scanGroupSyncSources: readonly SyncSource[] = [
  {
    kind: 'scan-groups',
    type: 'ScanGroup',
    table: scanGroups,
    idColumn: scanGroups.id,
    changeSeqColumn: scanGroups.changeSeq,
    scope: scanGroupScope,
    toEntities: async (_db, rows) => rows.map((r) => toScanGroup(r as ScanGroupRow)),
  },
];
