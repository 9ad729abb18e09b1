// The mirrored kinds: for each sync kind, its Dexie table, its /v2 path, the key its entity travels
// under in mutation bodies ({study:{...}}) and its entity schema; which fields are sets (sent as
// add/remove operations so that two offline edits merge) is src/api/set-fields.ts. One table here, used
// by the pull engine, the outbox and the readers.
import type { z } from 'zod';
import type { SyncKind } from '../api/sync';
import {
  Image,
  Organ,
  Pipeline,
  Predictor,
  Reaction,
  Review,
  ReviewGroup,
  ScanGroup,
  ScanOrder,
  ScanOrderList,
  Study,
} from '../api/entities';
import { SCAN_GROUP_GUARDED_FIELDS } from '../api/scan-groups';
import { STUDY_GUARDED_FIELDS } from '../api/studies';
import { Organization, User } from '../api/users';

export type MirrorTable =
  | 'studies'
  | 'scanGroups'
  | 'images'
  | 'scanOrders'
  | 'scanOrderLists'
  | 'reviews'
  | 'reviewGroups'
  | 'organizations'
  | 'users'
  | 'organs'
  | 'pipelines'
  | 'predictors'
  | 'reactions';

export interface KindSpec {
  kind: SyncKind;
  table: MirrorTable;
  /** The resource path under /v2, without a trailing slash. */
  path: string;
  /** The key of the entity object in POST/PATCH bodies (spec §7: {study:{...}}, {scanGroup:{...}}). */
  entityKey: string;
  schema: z.ZodObject;
  /**
   * Plain fields a PATCH sends with its base (the values it replaces), so the server can say when the
   * edit overwrote a newer value (src/api/edit-base.ts). None when absent.
   */
  guardedFields?: readonly string[];
  /**
   * Extra Dexie indexes beyond `id`, only those something reads by (orderBy, readRowsWhere): each one is
   * written with every stored row. A change needs a new version in db.ts.
   */
  indexes: string;
}

export const KIND_SPECS: readonly KindSpec[] = [
  {
    kind: 'studies',
    table: 'studies',
    path: '/studies',
    entityKey: 'study',
    schema: Study,
    guardedFields: STUDY_GUARDED_FIELDS,
    indexes: 'updatedAt, createdAt, name, organizationId',
  },
  {
    kind: 'scan-groups',
    table: 'scanGroups',
    path: '/scan-groups',
    entityKey: 'scanGroup',
    schema: ScanGroup,
    guardedFields: SCAN_GROUP_GUARDED_FIELDS,
    indexes: 'createdAt, simpleId',
  },
  {
    kind: 'images',
    table: 'images',
    path: '/images',
    entityKey: 'image',
    schema: Image,
    indexes: 'scanGroupId',
  },
  {
    kind: 'scan-orders',
    table: 'scanOrders',
    path: '/scan-orders',
    entityKey: 'scanOrder',
    schema: ScanOrder,
    indexes: 'updatedAt, createdAt, status',
  },
  {
    kind: 'scan-order-lists',
    table: 'scanOrderLists',
    path: '/scan-order-lists',
    entityKey: 'scanOrderList',
    schema: ScanOrderList,
    indexes: 'updatedAt, createdAt, status',
  },
  {
    kind: 'reviews',
    table: 'reviews',
    path: '/reviews',
    entityKey: 'review',
    schema: Review,
    indexes: 'updatedAt, reviewGroupUUID, imageId',
  },
  {
    kind: 'review-groups',
    table: 'reviewGroups',
    path: '/reviews/groups',
    entityKey: 'reviewGroup',
    schema: ReviewGroup,
    indexes: 'updatedAt',
  },
  {
    kind: 'organizations',
    table: 'organizations',
    path: '/organizations',
    entityKey: 'organization',
    schema: Organization,
    indexes: 'name, parentId',
  },
  {
    kind: 'users',
    table: 'users',
    path: '/users',
    entityKey: 'user',
    schema: User,
    indexes: 'updatedAt, organizationId',
  },
  {
    kind: 'organs',
    table: 'organs',
    path: '/organs',
    entityKey: 'organ',
    schema: Organ,
    indexes: 'updatedAt, name',
  },
  {
    kind: 'pipelines',
    table: 'pipelines',
    path: '/pipelines',
    entityKey: 'pipeline',
    schema: Pipeline,
    indexes: 'updatedAt, name',
  },
  {
    kind: 'predictors',
    table: 'predictors',
    path: '/predictors',
    entityKey: 'predictor',
    schema: Predictor,
    indexes: 'updatedAt, name',
  },
  {
    kind: 'reactions',
    table: 'reactions',
    path: '/reactions',
    entityKey: 'reaction',
    schema: Reaction,
    indexes: 'updatedAt, referenceId',
  },
];

const byKind = new Map(KIND_SPECS.map((s) => [s.kind, s]));

export function kindSpec(kind: SyncKind): KindSpec {
  const spec = byKind.get(kind);
  if (!spec) throw new Error(`unknown kind ${kind}`);
  return spec;
}

/**
 * Which mirrored row a mutation path touches: '/studies' → create in studies, '/studies/<id>' →
 * that row. Paths of other resources (mail, auth, sub-resources) have no local effect.
 */
export function targetOfPath(path: string): { spec: KindSpec; id?: string } | undefined {
  const clean = path.split('?')[0].replace(/\/+$/, '');
  for (const spec of KIND_SPECS) {
    if (spec.kind === 'review-groups') continue; // read-only here, and its path nests under /reviews
    if (clean === spec.path) return { spec };
    if (clean.startsWith(`${spec.path}/`)) {
      const rest = clean.slice(spec.path.length + 1);
      if (rest && !rest.includes('/')) return { spec, id: decodeURIComponent(rest) };
    }
  }
  return undefined;
}
