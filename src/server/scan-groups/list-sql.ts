// The scan-group list's source for lists/page-statement.ts: the table, and each row as the JSON object
// toScanGroup (repository.ts) makes of it, key for key (tests/api/list-json.test.ts holds them equal).
import { scanGroups } from '../db/schema';
import { SCAN_GROUPS_VERSION } from '../lists/count-cache';
import { isoSql, type ListSource } from '../lists/page-statement';

const t = '"scan_groups"';

export const scanGroupList: ListSource = {
  table: t,
  id: scanGroups.id,
  projection: [
    `${t}."id" AS "id"`,
    `${isoSql(`${t}."created_at"`)} AS "createdAt"`,
    `${isoSql(`${t}."updated_at"`)} AS "updatedAt"`,
    `${t}."creator_user_id" AS "creatorUserId"`,
    `${t}."organization_id" AS "organizationId"`,
    `${t}."status" AS "status"`,
    `${t}."simple_id" AS "simpleId"`,
    `${t}."name" AS "name"`,
    `${t}."notes" AS "notes"`,
    `${t}."lis_info" AS "LISInfo"`,
    `${t}."organ_id" AS "organId"`,
    `${t}."animal" AS "animal"`,
    `${t}."tags" AS "tags"`,
    `${t}."storage_status" AS "storageStatus"`,
    `${isoSql(`${t}."archive_at"`)} AS "archiveAt"`,
    `${t}."storage_history" AS "storageHistory"`,
    `${isoSql(`${t}."last_upload_date"`)} AS "lastUploadDate"`,
    `${t}."assignee_user_ids" AS "assigneeUserIds"`,
    `${t}."assignee_org_ids" AS "assigneeOrgIds"`,
    `${t}."inherited_assignees" AS "inheritedAssignees"`,
  ].join(', '),
  versioned: [SCAN_GROUPS_VERSION],
  scopeCoveredOrder: scanGroups.createdAt,
};
