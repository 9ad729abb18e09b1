// What a user may read, per subject type, as a plain description the server turns into SQL for list
// queries and the app applies to its local mirror. The CASL `read` rules are generated from these
// same scopes (readConditions), so a list and a single-row check can never disagree.
//
// A row is readable when the scope is `{ all: true }`, or when ANY of these holds:
//   - creatorUserId is set and row.creatorUserId = creatorUserId
//   - reviewerId is set and row.reviewerId = reviewerId                          (Review only)
//   - rootId is set and (row.id = rootId or row.rootId = rootId)            (Organization only)
//   - and, only if publicOnly is unset or row.visibility = 'public', any of:
//       - row.organizationId IN organizationIds
//       - direct:    row.assigneeUserIds contains assigneeUserId, or
//                    row.assigneeOrgIds overlaps assigneeOrgIds
//       - inherited: row.inheritedAssignees has {assigneeType 'User', assigneeId = assigneeUserId}
//                    or {assigneeType 'Organization', assigneeId IN assigneeOrgIds}
// Empty lists and null ids match nothing. SQL sketch (PostgreSQL):
//   organization_id = ANY($orgs) OR assignee_user_ids @> ARRAY[$uid] OR assignee_org_ids && $orgs
//   OR EXISTS (SELECT 1 FROM inherited_assignees i WHERE i.row_id = t.id AND ...)
import type { MongoQuery } from '@casl/ability';
import { resolveActor, type Actor, type ResolvedActor } from './actor';
import type { Policy } from './policies';
import type { InheritedAssignee, SubjectType } from './subjects';

export interface ScopedRead {
  all: false;
  organizationIds: string[];
  assigneeUserId: string | null;
  assigneeOrgIds: string[];
  /** The type has assigneeUserIds/assigneeOrgIds columns. */
  direct: boolean;
  /** The type has inheritedAssignees (study → its scan groups → their images). */
  inherited: boolean;
  creatorUserId?: string;
  reviewerId?: string;
  rootId?: string;
  publicOnly?: boolean;
}
export type ReadScope = { all: true } | ScopedRead;

/** Types that platform policies or super admin read in full, by policy. */
const FULL_READ: Partial<Record<SubjectType, readonly Policy[]>> = {
  Organization: ['superAdmin', 'platformOrganizationManagement'],
  User: ['superAdmin', 'platformUserManagement'],
  ScanGroup: ['superAdmin', 'platformScanManagement'],
  ScanOrder: ['superAdmin', 'platformScanManagement'],
  ScanOrderList: ['superAdmin', 'platformScanManagement'],
  Image: ['superAdmin', 'platformScanManagement'],
  AlignmentRigid: ['superAdmin', 'platformScanManagement'],
  Review: ['superAdmin', 'platformExperimentManagement'],
  Study: ['superAdmin', 'platformExperimentManagement'],
  Annotation: ['superAdmin'],
  Pipeline: ['superAdmin', 'platformExperimentManagement'],
  Reaction: ['superAdmin'],
  Activity: ['superAdmin'],
};

const none = (): ScopedRead => ({
  all: false,
  organizationIds: [],
  assigneeUserId: null,
  assigneeOrgIds: [],
  direct: false,
  inherited: false,
});

export function readScopeFor(actorIn: Actor | ResolvedActor, type: SubjectType): ReadScope {
  const a = resolveActor(actorIn);
  const full = FULL_READ[type];
  if (full?.some((p) => a.has(p))) return { all: true };
  const uid = a.userId;
  // "Assigned to the user, their organization or child teams" (§6.2), plus rows owned by them.
  const assigned = (direct: boolean, inherited: boolean): ScopedRead => ({
    ...none(),
    organizationIds: a.orgAndTeams,
    assigneeUserId: uid,
    assigneeOrgIds: a.orgAndTeams,
    direct,
    inherited,
    creatorUserId: uid,
  });
  const owned: ScopedRead = { ...none(), organizationIds: a.orgAndTeams, creatorUserId: uid };
  switch (type) {
    case 'Organization':
      return { ...none(), rootId: a.rootId };
    case 'User':
      return { ...none(), organizationIds: [...a.orgAndTeams, ...a.parents] };
    case 'ScanGroup':
    case 'Study':
      return assigned(true, true);
    case 'Image':
      return assigned(false, true);
    case 'ScanOrder':
    case 'ScanOrderList':
      return assigned(true, false);
    case 'Review':
      return { ...assigned(true, false), reviewerId: uid, publicOnly: true };
    case 'Annotation':
    case 'AlignmentRigid':
    case 'Reaction':
    case 'Activity':
      return owned;
    case 'UserViewerSettings':
      return { ...none(), creatorUserId: uid };
    case 'Organ':
    case 'Predictor':
      return { all: true };
    case 'Pipeline':
      // Pipelines are assigned to organizations; a team also uses its parents' pipelines.
      return { ...none(), assigneeOrgIds: [a.orgId, ...a.parents], direct: true };
    case 'AdminArea':
      return none();
  }
}

/** The scope as CASL conditions, one per OR branch; `[]` means nothing, `null` means everything. */
export function readConditions(scope: ReadScope): MongoQuery[] | null {
  if (scope.all) return null;
  const out: MongoQuery[] = [];
  const gate: MongoQuery = scope.publicOnly ? { visibility: 'public' } : {};
  if (scope.creatorUserId) out.push({ creatorUserId: scope.creatorUserId });
  if (scope.reviewerId) out.push({ reviewerId: scope.reviewerId });
  if (scope.rootId) out.push({ id: scope.rootId }, { rootId: scope.rootId });
  if (scope.organizationIds.length) out.push({ ...gate, organizationId: { $in: scope.organizationIds } });
  const uid = scope.assigneeUserId;
  const orgs = scope.assigneeOrgIds;
  if (scope.direct) {
    if (uid) out.push({ ...gate, assigneeUserIds: uid });
    if (orgs.length) out.push({ ...gate, assigneeOrgIds: { $in: orgs } });
  }
  if (scope.inherited) {
    if (uid)
      out.push({ ...gate, inheritedAssignees: { $elemMatch: { assigneeType: 'User', assigneeId: uid } } });
    if (orgs.length) {
      out.push({
        ...gate,
        inheritedAssignees: { $elemMatch: { assigneeType: 'Organization', assigneeId: { $in: orgs } } },
      });
    }
  }
  return out;
}

export interface ScopeRow {
  id?: string;
  rootId?: string;
  organizationId?: string;
  creatorUserId?: string | null;
  reviewerId?: string;
  visibility?: string;
  assigneeUserIds?: readonly string[];
  assigneeOrgIds?: readonly string[];
  inheritedAssignees?: readonly InheritedAssignee[];
}

/** The same test in plain code, for the local mirror (and as the reference the tests compare). */
export function matchesReadScope(scope: ReadScope, row: ScopeRow): boolean {
  if (scope.all) return true;
  if (scope.creatorUserId && row.creatorUserId === scope.creatorUserId) return true;
  if (scope.reviewerId && row.reviewerId === scope.reviewerId) return true;
  if (scope.rootId && (row.id === scope.rootId || row.rootId === scope.rootId)) return true;
  if (scope.publicOnly && row.visibility !== 'public') return false;
  const orgs = new Set(scope.assigneeOrgIds);
  const uid = scope.assigneeUserId;
  if (row.organizationId !== undefined && scope.organizationIds.includes(row.organizationId)) return true;
  if (scope.direct) {
    if (uid && row.assigneeUserIds?.includes(uid)) return true;
    if (row.assigneeOrgIds?.some((o) => orgs.has(o))) return true;
  }
  if (scope.inherited) {
    return (row.inheritedAssignees ?? []).some((i) =>
      i.assigneeType === 'User' ? uid !== null && i.assigneeId === uid : orgs.has(i.assigneeId),
    );
  }
  return false;
}

/**
 * Whether every row of these organizations is readable under the scope: then a list filtered to them
 * needs no read-scope condition (the filter implies it), which lets the database answer it from an
 * index of the organization alone (bench/README.md, api-lists).
 */
export function readsAllOf(scope: ReadScope, organizationIds: readonly string[]): boolean {
  if (scope.all) return true;
  if (scope.publicOnly || organizationIds.length === 0) return false;
  const mine = new Set(scope.organizationIds);
  return organizationIds.every((id) => mine.has(id));
}
