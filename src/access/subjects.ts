// What the rules look at: the subject-type names, the actions, and the few fields of each entity the
// conditions read. Entities from src/api satisfy these structurally; rules never need more.
//
// Subject detection: we tag objects with CASL's `subject()` helper, through `asSubject()` below,
// which copies first. Reason: rows come from Drizzle, Dexie and React Query as plain (sometimes
// frozen) objects; `subject()` alone defines a property on its argument and throws on frozen ones.
// A bare type name (`ability.can('create', 'Study')`) asks "is there any rule", as CASL does.
import { subject as tag } from '@casl/ability';
import type { ForcedSubject } from '@casl/ability';
import type {
  AssigneeType,
  ReviewStatus,
  ReviewType,
  ScanOrderStatus,
  StorageStatus,
  Visibility,
} from '../api/enums';

export const ACTIONS = [
  'manage',
  'create',
  'read',
  'update',
  'delete',
  'download',
  'share',
  'print',
  'view',
  'cancel',
] as const;
/** `manage` is CASL's "any action"; `view` is only used with AdminArea; `cancel` stops an image's processing. */
export type Action = (typeof ACTIONS)[number];

export const SUBJECT_TYPES = [
  'Organization',
  'User',
  'ScanGroup',
  'ScanOrder',
  'ScanOrderList',
  'Review',
  'Annotation',
  'Study',
  'Image',
  'AlignmentRigid',
  'Organ',
  'Pipeline',
  'Predictor',
  'Reaction',
  'Activity',
  'UserViewerSettings',
  'AdminArea',
] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** Admin areas of §6.2 (plus the activity tab of /administrator, §2.2). */
export const ADMIN_AREAS = ['organization', 'teams', 'users', 'activity', 'pictor-admin', 'setup'] as const;
export type AdminAreaName = (typeof ADMIN_AREAS)[number];

/** One item of `inheritedAssignees` (§3): who sees a row because of another row (its source). */
export interface InheritedAssignee {
  assigneeId: string;
  assigneeType: AssigneeType;
  sourceId?: string;
  sourceType?: string;
  count?: number;
}

interface Owned {
  id?: string;
  organizationId?: string;
  creatorUserId?: string | null;
}
interface Assigned {
  assigneeUserIds?: readonly string[];
  assigneeOrgIds?: readonly string[];
  inheritedAssignees?: readonly InheritedAssignee[];
}

export interface OrganizationSubject {
  id?: string;
  rootId?: string;
  parentId?: string | null;
  parentIds?: readonly string[];
}
export interface UserSubject {
  id?: string;
  organizationId?: string;
}
export interface ScanGroupSubject extends Owned, Assigned {
  storageStatus?: StorageStatus;
  archiveAt?: string | null;
}
export interface ScanOrderSubject extends Owned, Assigned {
  status?: ScanOrderStatus;
  /** Proposed values on update (see update.ts): `next.status` must be `active` (§4.5). */
  next?: { status?: string };
}
export type ScanOrderListSubject = Owned & Assigned;
export interface ReviewSubject extends Owned, Assigned {
  reviewerId?: string;
  status?: ReviewStatus;
  type?: ReviewType;
  qc?: boolean;
  visibility?: Visibility;
  /** Proposed values on update (see update.ts). */
  next?: { status?: string };
}
export interface AnnotationSubject extends Owned {
  imageId?: string;
}
export type StudySubject = Owned & Assigned;
/** Images carry no direct assignees (§3): they are seen through their slide's, as inherited ones. */
export interface ImageSubject extends Owned {
  inheritedAssignees?: readonly InheritedAssignee[];
  storageStatus?: StorageStatus;
  scanGroupId?: string;
}
export type AlignmentRigidSubject = Owned;
export type OrganSubject = { id?: string };
export interface PipelineSubject {
  id?: string;
  assigneeOrgIds?: readonly string[];
}
export type PredictorSubject = Owned;
export type ReactionSubject = Owned;
export type ActivitySubject = Owned;
export type UserViewerSettingsSubject = Owned;
export interface AdminAreaSubject {
  name: AdminAreaName;
}

export interface SubjectMap {
  Organization: OrganizationSubject;
  User: UserSubject;
  ScanGroup: ScanGroupSubject;
  ScanOrder: ScanOrderSubject;
  ScanOrderList: ScanOrderListSubject;
  Review: ReviewSubject;
  Annotation: AnnotationSubject;
  Study: StudySubject;
  Image: ImageSubject;
  AlignmentRigid: AlignmentRigidSubject;
  Organ: OrganSubject;
  Pipeline: PipelineSubject;
  Predictor: PredictorSubject;
  Reaction: ReactionSubject;
  Activity: ActivitySubject;
  UserViewerSettings: UserViewerSettingsSubject;
  AdminArea: AdminAreaSubject;
}

export type TaggedSubject<T extends SubjectType = SubjectType> = SubjectMap[T] & ForcedSubject<T>;

/**
 * Tags a copy of `row` as subject type `type` for `ability.can(...)`. Shallow copy: the caller's
 * object is left untouched. Extra fields (the full entity) are welcome and ignored.
 */
export function asSubject<T extends SubjectType>(type: T, row: SubjectMap[T]): TaggedSubject<T> {
  return tag(type, { ...row }) as TaggedSubject<T>;
}
