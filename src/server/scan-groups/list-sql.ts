// The scan-group list's source for lists/page-statement.ts: the table, and each row's JSON as
// toScanGroup (repository.ts) makes it, key for key, which PostgreSQL keeps in the list_json column
// (migration 0016; tests/api/list-json.test.ts holds the two equal).
import { scanGroups } from '../db/schema';
import { SCAN_GROUPS_VERSION } from '../lists/count-cache';
import type { ListSource } from '../lists/page-statement';

export const scanGroupList: ListSource = {
  table: '"scan_groups"',
  id: scanGroups.id,
  json: '"scan_groups"."list_json"',
  versioned: [SCAN_GROUPS_VERSION],
  scopeCoveredOrder: scanGroups.createdAt,
  organizationOrder: scanGroups.createdAt,
};
