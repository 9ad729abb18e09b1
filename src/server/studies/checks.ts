// Value checks of study and slide requests that need the database or the stored row: ids pointing at
// things the caller may see (users and organizations to share with, slides to add to a study, organs)
// and tag rules (§5). Only newly added ids are checked, so a stale id already on a row never blocks
// an unrelated edit.
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { TAGS_PER_STUDY_MAX } from '../../api/constants';
import { StudyText } from '../../api/messages';
import { ScanGroupText } from '../../api/scan-groups';
import { StudyRuleText } from '../../api/studies';
import type { Db } from '../db/client';
import { organizations, organs, scanGroups, users } from '../db/schema';
import { organizationScope, userScope } from '../users/repository';
import { readScopeSql } from '../db/read-scope-sql';
import { badRequest, conflict } from '../http/errors';
import { scopeOf } from '../http/guard';
import { scanGroupScope } from '../scan-groups/repository';
import { firstDuplicate } from './sets';

/** `field` names the body field in the message, e.g. 'study.assigneeUserIds'. */
export async function assertAssignable(
  db: Db,
  request: FastifyRequest,
  ids: { userIds: readonly string[]; orgIds: readonly string[] },
  prefix: string,
): Promise<void> {
  if (ids.userIds.length) {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, [...ids.userIds]), readScopeSql(scopeOf(request, 'User'), userScope)));
    if (rows.length !== ids.userIds.length)
      throw badRequest(`${prefix}.assigneeUserIds: ${StudyRuleText.unknownUser}`);
  }
  if (ids.orgIds.length) {
    const rows = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(
        and(
          inArray(organizations.id, [...ids.orgIds]),
          readScopeSql(scopeOf(request, 'Organization'), organizationScope),
        ),
      );
    if (rows.length !== ids.orgIds.length)
      throw badRequest(`${prefix}.assigneeOrgIds: ${StudyRuleText.unknownOrganization}`);
  }
}

/** Slides to add to a study: readable by the caller, and not archived (§4.2). */
export async function assertAddableSlides(
  db: Db,
  request: FastifyRequest,
  ids: readonly string[],
  prefix: string,
): Promise<void> {
  if (!ids.length) return;
  const rows = await db
    .select({ id: scanGroups.id, storageStatus: scanGroups.storageStatus })
    .from(scanGroups)
    .where(
      and(inArray(scanGroups.id, [...ids]), readScopeSql(scopeOf(request, 'ScanGroup'), scanGroupScope)),
    );
  if (rows.length !== ids.length) throw badRequest(`${prefix}.scanGroupIds: ${StudyRuleText.unknownSlide}`);
  if (rows.some((r) => r.storageStatus !== 'active')) throw conflict(StudyRuleText.archivedSlide);
}

const fold = (t: string) => t.toLowerCase();

/**
 * Tag rules (§5): a list with the same tag twice (case-insensitive) → 400 'This tag already exists';
 * adding a tag the row already has → 409 with the same text; more than 30 in the end → 400.
 */
export function checkTags(c: {
  replace?: readonly string[];
  add?: readonly string[];
  stored: readonly string[];
  final: readonly string[];
  tooMany: string;
}): void {
  if (c.replace && firstDuplicate(c.replace)) throw badRequest(StudyText.tagExists);
  if (c.add?.length) {
    if (firstDuplicate(c.add)) throw badRequest(StudyText.tagExists);
    const have = new Set((c.replace ?? c.stored).map(fold));
    if (c.add.some((t) => have.has(fold(t)))) throw conflict(StudyText.tagExists);
  }
  if (c.final.length > TAGS_PER_STUDY_MAX) throw badRequest(c.tooMany);
}

/**
 * A slide's organ must exist; its animal defaults to the organ's and may not contradict it.
 * Returns the animal to store.
 */
export async function assertOrgan(
  db: Db,
  organId: string | null,
  animal: string | null,
  prefix: string,
): Promise<string | null> {
  if (!organId) return animal;
  const [organ] = await db.select().from(organs).where(eq(organs.id, organId));
  if (!organ) throw badRequest(`${prefix}.organId: ${ScanGroupText.unknownOrgan}`);
  if (animal === null) return organ.animal;
  if (fold(animal) !== fold(organ.animal))
    throw badRequest(`${prefix}.animal: ${ScanGroupText.animalMismatch}`);
  return animal;
}
