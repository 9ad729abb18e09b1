// Every entity of spec §3 as the API returns it (zod), shared by server, local store and app.
// Dates are ISO strings. Enumerations come from ./enums.
import { z } from 'zod';
import {
  ImageStatuses,
  ImageTypes,
  ReviewStatuses,
  ReviewTypes,
  ScanGroupStatuses,
  ScanOrderStatuses,
  ScanTypes,
  StorageStatuses,
  StudyStatuses,
  Visibilities,
} from './enums';

const id = z.string();
const date = z.string();
const ids = z.array(z.string());

export const AssigneeType = z.enum(['User', 'Organization']);
export const InheritedAssignee = z.object({
  assigneeId: id,
  assigneeType: AssigneeType,
  sourceId: id.optional(),
  sourceType: z.string().optional(),
  count: z.number().int().optional(),
});
export type InheritedAssignee = z.infer<typeof InheritedAssignee>;

const assignees = {
  assigneeUserIds: ids,
  assigneeOrgIds: ids,
  inheritedAssignees: z.array(InheritedAssignee),
};

export const ScanOrderStatus = z.enum(ScanOrderStatuses);
export const ScanOrder = z.object({
  id,
  createdAt: date,
  updatedAt: date,
  creatorUserId: id.nullable(),
  organizationId: id,
  status: ScanOrderStatus,
  scanGroupId: id.nullable(),
  pipelineId: id.nullable(),
  studyIds: ids,
  notes: z.string(),
  ...assignees,
});
export type ScanOrder = z.infer<typeof ScanOrder>;

export const ScanOrderList = z.object({
  id,
  createdAt: date,
  updatedAt: date,
  status: ScanOrderStatus,
  creatorUserId: id.nullable(),
  organizationId: id,
  assigneeIds: ids,
  assigneeUserIds: ids,
  assigneeOrgIds: ids,
  scanOrderIds: ids,
  expiration: date.nullable(),
  orderBy: z.string().nullable(),
  orderDirection: z.string().nullable(),
});
export type ScanOrderList = z.infer<typeof ScanOrderList>;

export const StorageStatus = z.enum(StorageStatuses);
export const StorageHistoryItem = z.object({ storageStatus: z.string(), timestamp: date });
export type StorageHistoryItem = z.infer<typeof StorageHistoryItem>;

export const ScanGroup = z.object({
  id,
  createdAt: date,
  updatedAt: date,
  creatorUserId: id.nullable(),
  organizationId: id,
  status: z.enum(ScanGroupStatuses),
  simpleId: z.string(),
  name: z.string().nullable(),
  notes: z.string(),
  LISInfo: z.record(z.string(), z.unknown()).nullable(),
  organId: id.nullable(),
  animal: z.string().nullable(),
  tags: z.array(z.string()),
  storageStatus: StorageStatus,
  archiveAt: date.nullable(),
  storageHistory: z.array(StorageHistoryItem),
  lastUploadDate: date.nullable(),
  ...assignees,
});
export type ScanGroup = z.infer<typeof ScanGroup>;

export const Pipeline = z.object({
  id,
  creatorUserId: id.nullable(),
  name: z.string(),
  predictorIds: ids,
  organId: id.nullable(),
  assigneeOrgIds: ids,
  createdAt: date,
  updatedAt: date,
});
export type Pipeline = z.infer<typeof Pipeline>;

export const Organ = z.object({
  id,
  name: z.string(),
  animal: z.string(),
  ...assignees,
  createdBy: id.nullable(),
  createdAt: date,
  updatedAt: date,
});
export type Organ = z.infer<typeof Organ>;

export const ViewerOptions = z.object({
  exposure: z.number().optional(),
  gamma: z.number().optional(),
  saturation: z.number().optional(),
  contrast: z.number().optional(),
  brightness: z.number().optional(),
});
export type ViewerOptions = z.infer<typeof ViewerOptions>;

export const Study = z.object({
  id,
  name: z.string(),
  tags: z.array(z.string()),
  scanGroupIds: ids,
  organizationId: id,
  status: z.enum(StudyStatuses),
  creatorUserId: id.nullable(),
  ...assignees,
  createdAt: date,
  updatedAt: date,
  viewerOptions: ViewerOptions.nullable(),
});
export type Study = z.infer<typeof Study>;

export const ImageInfo = z.object({
  uploadStart: z.string().optional(),
  uploadEnd: z.string().optional(),
  size: z.number().optional(),
  traceback: z.string().optional(),
  rejection: z.string().optional(),
  code: z.string().optional(),
  desc: z.string().optional(),
});
export type ImageInfo = z.infer<typeof ImageInfo>;

export const ImageChannel = z.object({ name: z.string(), color: z.string() });

export const Image = z.object({
  id,
  name: z.string(),
  organizationId: id,
  creatorUserId: id.nullable(),
  status: z.enum(ImageStatuses),
  mediaType: z.string().nullable(),
  info: ImageInfo,
  scanType: z.enum(ScanTypes).nullable(),
  channels: z.array(ImageChannel),
  imageType: z.enum(ImageTypes),
  scanGroupId: id.nullable(),
  storageStatus: StorageStatus,
  archiveAt: date.nullable(),
  sourceImageId: id.nullable(),
  scanOrderId: id.nullable(),
  predictorId: id.nullable(),
  pixelScale: z.number().nullable(),
  displayUUIDs: ids,
  displayStatus: z.string(),
  workerId: z.string().nullable(),
  inheritedAssignees: z.array(InheritedAssignee),
  createdAt: date,
  updatedAt: date,
});
export type Image = z.infer<typeof Image>;

export const Predictor = z.object({
  id,
  createdAt: date,
  updatedAt: date,
  archiveAt: date.nullable(),
  creatorUserId: id.nullable(),
  organizationId: id.nullable(),
  storageStatus: StorageStatus,
  status: z.string(),
  name: z.string(),
  title: z.string(),
  version: z.string(),
  mediaType: z.string().nullable(),
  organId: id.nullable(),
  scanType: z.string().nullable(),
  inputPixelScale: z.number().nullable(),
  outputPixelScale: z.number().nullable(),
  outputTileShape: z.array(z.number()).nullable(),
  outputTileOverlap: z.number().nullable(),
  inputDataType: z.string().nullable(),
  outputDataType: z.string().nullable(),
  inputChannels: z.array(z.unknown()),
  outputChannels: z.array(z.unknown()),
  uuid: id.nullable(),
  defaultViewerSettings: z.record(z.string(), z.unknown()).nullable(),
});
export type Predictor = z.infer<typeof Predictor>;

export const Annotation = z.object({
  id,
  creatorUserId: id.nullable(),
  organizationId: id,
  content: z.unknown(),
  imageId: id,
  sourceImageId: id.nullable(),
  reviewId: id.nullable(),
  name: z.string(),
  createdAt: date,
  updatedAt: date,
});
export type Annotation = z.infer<typeof Annotation>;

export const AlignmentRigid = z.object({
  id,
  createdAt: date,
  updatedAt: date,
  creatorUserId: id.nullable(),
  organizationId: id,
  type: z.string(),
  status: ScanOrderStatus,
  error: z.string().nullable(),
  outputData: z.unknown(),
  inputData: z.unknown(),
});
export type AlignmentRigid = z.infer<typeof AlignmentRigid>;

export const Reaction = z.object({
  id,
  creatorUserId: id,
  organizationId: id,
  reactionType: z.literal('heart'),
  reference: z.literal('ScanGroup'),
  referenceId: id,
  createdAt: date,
  updatedAt: date,
});
export type Reaction = z.infer<typeof Reaction>;

export const Activity = z.object({
  id,
  date,
  diff: z.record(z.string(), z.unknown()),
  referenceId: id.nullable(),
  actionType: z.string(),
  reference: z.string(),
  creatorUserId: id.nullable(),
  organizationId: id.nullable(),
});
export type Activity = z.infer<typeof Activity>;

export const UserViewerSettings = z.object({
  id,
  studyId: id.nullable(),
  creatorUserId: id,
  viewerSettings: z.record(z.string(), z.unknown()),
  createdAt: date,
  updatedAt: date,
});
export type UserViewerSettings = z.infer<typeof UserViewerSettings>;

export const Review = z.object({
  id,
  creatorUserId: id.nullable(),
  organizationId: id,
  reviewGroupUUID: id,
  /** Ours: the study the review was requested from, when it was; it names the review group. */
  studyId: id.nullable(),
  imageId: id,
  reviewerId: id.nullable(),
  status: z.enum(ReviewStatuses),
  comment: z.string(),
  createdAt: date,
  updatedAt: date,
  type: z.enum(ReviewTypes),
  qc: z.boolean(),
  visibility: z.enum(Visibilities),
  ...assignees,
});
export type Review = z.infer<typeof Review>;

export const ReviewGroup = z.object({
  id,
  total: z.number().int(),
  completed: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  flagged: z.number().int(),
  pending: z.number().int(),
  createdAt: date,
  updatedAt: date,
});
export type ReviewGroup = z.infer<typeof ReviewGroup>;
