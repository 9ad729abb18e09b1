// The enumerations of spec §4.1 as plain const tuples, so that zod schemas (`z.enum(X)`), the access
// rules and the app share one spelling. User status lives in ./users.ts with its schema.

export const ScanOrderStatuses = ['inactive', 'active', 'processing', 'fulfilled', 'failed'] as const;
export type ScanOrderStatus = (typeof ScanOrderStatuses)[number];

/** `created` is what a slide made from the label dialog starts with (§4.1). */
export const ScanGroupStatuses = [
  'created',
  'active',
  'archiving',
  'archived',
  'restoring',
  'archiveFailure',
  'restoreFailure',
] as const;
export type ScanGroupStatus = (typeof ScanGroupStatuses)[number];

export const ImageStatuses = ['created', 'processing', 'completed', 'failed', 'rejected'] as const;
export type ImageStatus = (typeof ImageStatuses)[number];

export const ImageTypes = ['virtual', 'real'] as const;
export type ImageType = (typeof ImageTypes)[number];

export const ImagePartStatuses = [
  'created',
  'pending',
  'completed',
  'failed',
  'rejected',
  'disabled',
] as const;
export type ImagePartStatus = (typeof ImagePartStatuses)[number];

export const ScanTypes = ['autofluorescence', 'brightfield'] as const;
export type ScanType = (typeof ScanTypes)[number];

/** Storage of images and slides; only `active` allows status, display, upload and download (§4.5). */
export const StorageStatuses = [
  'active',
  'archiveReady',
  'archived',
  'restoreReady',
  'restoring',
  'archiveFailure',
  'restoreFailure',
] as const;
export type StorageStatus = (typeof StorageStatuses)[number];

export const StudyStatuses = ['created'] as const;
export type StudyStatus = (typeof StudyStatuses)[number];

export const ReviewStatuses = ['pending', 'completed', 'accepted', 'flagged', 'rejected'] as const;
export type ReviewStatus = (typeof ReviewStatuses)[number];

export const ReviewTypes = ['standard', 'qc', 'comment'] as const;
export type ReviewType = (typeof ReviewTypes)[number];

export const Visibilities = ['private', 'public'] as const;
export type Visibility = (typeof Visibilities)[number];

export const AlignmentStatuses = ['inactive', 'active', 'processing', 'fulfilled', 'failed'] as const;
export type AlignmentStatus = (typeof AlignmentStatuses)[number];

export const AssigneeTypes = ['User', 'Organization'] as const;
export type AssigneeType = (typeof AssigneeTypes)[number];

export const SortDirections = ['asc', 'desc'] as const;
export type SortDirection = (typeof SortDirections)[number];
