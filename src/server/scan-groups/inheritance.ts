// Inherited assignees (§3, §6.2): a study's assignees see its slides, and a slide's direct and
// inherited assignees see its images. Stored on the rows as `inheritedAssignees`, so read scopes are a
// plain column test in SQL and in the local mirror. Recomputed, in the caller's transaction, whenever
// a study's assignees or scanGroupIds change, a study is deleted, a slide's assignees change, or an
// image joins a slide.
//
// Items are keyed by (assignee, source): a slide gets one item per assignee per study that shares it
// (count 1); an image gets one item per assignee of its slide, with count = the number of grants
// behind it on that slide (1 if directly assigned, plus one per study sharing it).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { InheritedAssignee } from '../../api/entities';
import type { Db } from '../db/client';
import { images, scanGroups, studies } from '../db/schema';
import { textArraySql } from '../edits/sets';

type Item = Required<InheritedAssignee>;

const byKey = (a: Item, b: Item) =>
  a.sourceId.localeCompare(b.sourceId) ||
  a.assigneeType.localeCompare(b.assigneeType) ||
  a.assigneeId.localeCompare(b.assigneeId);

interface StudyGrant {
  id: string;
  assigneeUserIds: string[];
  assigneeOrgIds: string[];
}

/** What a slide inherits from the studies that contain it. */
export function fromStudies(containing: readonly StudyGrant[]): Item[] {
  const items: Item[] = [];
  for (const s of containing) {
    for (const id of new Set(s.assigneeUserIds))
      items.push({ assigneeId: id, assigneeType: 'User', sourceId: s.id, sourceType: 'Study', count: 1 });
    for (const id of new Set(s.assigneeOrgIds))
      items.push({
        assigneeId: id,
        assigneeType: 'Organization',
        sourceId: s.id,
        sourceType: 'Study',
        count: 1,
      });
  }
  return items.sort(byKey);
}

/** What an image inherits from its slide: the slide's direct assignees and its inherited ones. */
export function fromScanGroup(group: {
  id: string;
  assigneeUserIds: readonly string[];
  assigneeOrgIds: readonly string[];
  inheritedAssignees: readonly InheritedAssignee[];
}): Item[] {
  const counts = new Map<string, Item>();
  const add = (assigneeType: Item['assigneeType'], assigneeId: string, n: number) => {
    const key = `${assigneeType}:${assigneeId}`;
    const item = counts.get(key) ?? {
      assigneeId,
      assigneeType,
      sourceId: group.id,
      sourceType: 'ScanGroup',
      count: 0,
    };
    item.count += n;
    counts.set(key, item);
  };
  for (const id of new Set(group.assigneeUserIds)) add('User', id, 1);
  for (const id of new Set(group.assigneeOrgIds)) add('Organization', id, 1);
  for (const i of group.inheritedAssignees) add(i.assigneeType, i.assigneeId, i.count ?? 1);
  return [...counts.values()].sort(byKey);
}

/**
 * Recomputes `inheritedAssignees` of the given slides (from their studies) and of all their images.
 * Rows whose value does not change are not written, so their change_seq (sync cursor) stays put.
 */
export async function recomputeInheritance(
  db: Db,
  { scanGroupIds }: { scanGroupIds: readonly string[] },
): Promise<void> {
  const ids = [...new Set(scanGroupIds)];
  if (ids.length === 0) return;
  const groups = await db
    .select({
      id: scanGroups.id,
      assigneeUserIds: scanGroups.assigneeUserIds,
      assigneeOrgIds: scanGroups.assigneeOrgIds,
    })
    .from(scanGroups)
    .where(inArray(scanGroups.id, ids));
  const containing = await db
    .select({
      id: studies.id,
      scanGroupIds: studies.scanGroupIds,
      assigneeUserIds: studies.assigneeUserIds,
      assigneeOrgIds: studies.assigneeOrgIds,
    })
    .from(studies)
    .where(sql`${studies.scanGroupIds} && ${textArraySql(ids)}`);
  for (const group of groups) {
    const inherited = fromStudies(containing.filter((s) => s.scanGroupIds.includes(group.id)));
    const json = JSON.stringify(inherited);
    await db
      .update(scanGroups)
      .set({ inheritedAssignees: inherited })
      .where(and(eq(scanGroups.id, group.id), sql`${scanGroups.inheritedAssignees} <> ${json}::jsonb`));
    const forImages = fromScanGroup({ ...group, inheritedAssignees: inherited });
    await db
      .update(images)
      .set({ inheritedAssignees: forImages })
      .where(
        and(
          eq(images.scanGroupId, group.id),
          sql`${images.inheritedAssignees} <> ${JSON.stringify(forImages)}::jsonb`,
        ),
      );
  }
}
