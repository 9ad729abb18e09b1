// The study list's SQL: the name filter and the source lists/page-statement.ts pages (the helpers
// every list shares are in lists/list-sql.ts).
import { sql, type SQL } from 'drizzle-orm';
import { studies } from '../db/schema';
import { SCAN_GROUPS_VERSION, STUDIES_VERSION } from '../lists/count-cache';
import type { ListSource } from '../lists/page-statement';

/**
 * The study's name contains `text`, any case: what ILIKE of containsPattern(text) answers (in a UTF-8
 * database ILIKE lower-cases both sides as lower() does), at a third of the cost per row where no
 * trigram index serves the filter and each tuple of an index walk is tested: the name is compared
 * lower-cased as stored (name_lower, migration 0017), the search text lower-cased once per statement (an
 * InitPlan). A member's study-name list, PostgreSQL CPU per statement 1.6 → 0.8 → 0.47 ms
 * (bench/README.md, api-lists).
 */
export const studyNameContains = (text: string): SQL =>
  sql`strpos(${sql.raw('"studies"."name_lower"')}, (SELECT lower(${text}))) > 0`;

/**
 * The study list's source for lists/page-statement.ts: each row's JSON as toStudy (repository.ts)
 * makes it, key for key, which PostgreSQL keeps in the list_json column (migration 0016;
 * tests/api/list-json.test.ts holds the two equal). With filters on the study's slides the statement
 * reads scan_groups too, hence `withSlides`.
 */
export function studyList(withSlides: boolean): ListSource {
  return withSlides ? STUDIES_WITH_SLIDES : STUDIES;
}

const STUDIES: ListSource = {
  table: '"studies"',
  id: studies.id,
  json: '"studies"."list_json"',
  versioned: [STUDIES_VERSION],
  scopeCoveredOrder: studies.updatedAt,
  organizationOrder: studies.createdAt,
};
const STUDIES_WITH_SLIDES: ListSource = { ...STUDIES, versioned: [STUDIES_VERSION, SCAN_GROUPS_VERSION] };
