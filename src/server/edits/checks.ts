// Value checks of study and slide requests that need the database or the stored row: ids pointing at
// things the caller may see (users and organizations to share with, organs)
// and tag rules (§5). Only newly added ids are checked, so a stale id already on a row never blocks
// an unrelated edit.
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { errorText } from '../../api/errors';
import { tagChangeRefusal } from '../../api/tag-rules';
import type { Db } from '../db/client';
import { organizations, organs, users } from '../db/schema';
import { organizationScope } from '../organizations/entities';
import { userScope } from '../users/repository';
import { readScopeSql } from '../db/read-scope-sql';
import { apiError } from '../http/errors';
import { scopeOf } from '../http/guard';

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
      throw apiError('USER_UNAVAILABLE', { field: `${prefix}.assigneeUserIds` });
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
      throw apiError('ORGANIZATION_UNAVAILABLE', { field: `${prefix}.assigneeOrgIds` });
  }
}

/**
 * The shared tag rules (src/api/tag-rules.ts) as this server's errors: 400 for a bad list, 409 for a
 * clash; `tooMany` names the kind's error for a list too long.
 */
export function checkTags(
  c: Omit<Parameters<typeof tagChangeRefusal>[0], 'tooMany'> & {
    tooMany: 'STUDY_TOO_MANY_TAGS' | 'SLIDE_TOO_MANY_TAGS';
  },
): void {
  const tooMany = errorText(c.tooMany);
  const refusal = tagChangeRefusal({ ...c, tooMany });
  if (!refusal) return;
  if (refusal.kind === 'conflict') throw apiError('TAG_EXISTS');
  throw apiError(refusal.message === tooMany ? c.tooMany : 'TAG_REPEATED');
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
  if (!organ) throw apiError('UNKNOWN_ORGAN', { field: `${prefix}.organId` });
  if (animal === null) return organ.animal;
  if (animal.toLowerCase() !== organ.animal.toLowerCase())
    throw apiError('ANIMAL_MISMATCH', { field: `${prefix}.animal` });
  return animal;
}
