// The product's words for its things and their fields, for every sentence the app builds about a
// change: the sync list ('Tag "urgent" on study Kidney 12') and the activity feeds ('Chiara Rossi
// changed the tags of study Kidney 12'). One table, so a field is called the same everywhere and no
// sentence shows a field's code name (scanGroupIds is "slides", never "scan group ids").
import type { SyncKind } from './sync';

/** A field's name in a sentence, singular; set fields by one of their values ('tag', 'member'). */
const FIELD_WORDS: Record<string, string> = {
  name: 'name',
  title: 'title',
  email: 'e-mail',
  notes: 'notes',
  comment: 'comment',
  content: 'drawing',
  status: 'status',
  displayStatus: 'display status',
  storageStatus: 'storage',
  visibility: 'visibility',
  archiveAt: 'archive date',
  expiration: 'expiry date',
  tags: 'tag',
  assigneeUserIds: 'member',
  assigneeOrgIds: 'organization',
  assigneeIds: 'assignee',
  scanGroupIds: 'slide',
  scanGroupId: 'slide',
  studyIds: 'study',
  studyId: 'study',
  scanOrderIds: 'order',
  predictorIds: 'assay',
  predictorId: 'assay',
  pipelineId: 'staining pipeline',
  organId: 'organ',
  animal: 'animal',
  imageId: 'image',
  reviewerId: 'reviewer',
  simpleId: 'slide label ID',
  LISInfo: 'LIS information',
  info: 'details',
  enabledPolicies: 'permission',
  availablePolicies: 'available permission',
  requestedPolicies: 'requested permission',
  adminUserId: 'administrator',
  parentId: 'parent organization',
  userLimit: 'user limit',
  scanGroupSettings: 'slide expiry settings',
  viewerOptions: 'viewer settings',
  viewerSettings: 'viewer settings',
  pixelScale: 'pixel size',
  channels: 'channels',
};

/**
 * The word for `field`: from the table, else its code name spelt out without an id suffix
 * ('lastUploadDate' → 'last upload date', 'fooIds' → 'foo').
 */
export function fieldWord(field: string): string {
  return (
    FIELD_WORDS[field] ??
    field
      .replace(/Ids?$/, '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
  );
}

/** The noun for a kind of thing, by the entity name the server records (Activity.reference). */
const ENTITY_NOUNS: Record<string, string> = {
  Study: 'study',
  ScanGroup: 'slide',
  Image: 'image',
  ScanOrder: 'order',
  ScanOrderList: 'order list',
  Review: 'review',
  ReviewGroup: 'review group',
  Annotation: 'annotation',
  Organization: 'organization',
  User: 'user',
  Organ: 'organ',
  Pipeline: 'staining pipeline',
  Predictor: 'assay',
  AlignmentRigid: 'alignment',
  Reaction: 'heart',
  UserViewerSettings: 'viewer settings',
};

/** The entity each mirrored kind holds. */
export const KIND_ENTITIES: Record<SyncKind, string> = {
  studies: 'Study',
  'scan-groups': 'ScanGroup',
  images: 'Image',
  'scan-orders': 'ScanOrder',
  'scan-order-lists': 'ScanOrderList',
  reviews: 'Review',
  'review-groups': 'ReviewGroup',
  organizations: 'Organization',
  users: 'User',
  organs: 'Organ',
  pipelines: 'Pipeline',
  predictors: 'Predictor',
  reactions: 'Reaction',
};

/** 'study', 'slide'… for an entity name; an unknown one spelt out ('FooBar' → 'foo bar'). */
export function entityNoun(entity: string): string {
  return (
    ENTITY_NOUNS[entity] ??
    entity
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .trim()
  );
}

/** The noun for a mirrored kind's rows. */
export const kindNoun = (kind: SyncKind): string => entityNoun(KIND_ENTITIES[kind]);

/** 'study' → 'studies', 'slide' → 'slides'; words already plural stay as they are. */
export function plural(noun: string): string {
  if (noun.endsWith('settings') || noun.endsWith('s')) return noun;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/** 'a slide', 'an image'. */
export const withArticle = (noun: string): string => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
