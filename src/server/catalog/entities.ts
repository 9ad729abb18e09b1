// Catalogue rows as the API returns them (spec §3 Organ, Pipeline, Predictor).
import type { Organ, Pipeline, Predictor } from '../../api/entities';
import type { StorageStatus } from '../../api/enums';
import { organs, pipelines, predictors } from '../db/schema';

export type OrganRow = typeof organs.$inferSelect;
export type PipelineRow = typeof pipelines.$inferSelect;
export type PredictorRow = typeof predictors.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toOrgan(r: OrganRow): Organ {
  return {
    id: r.id,
    name: r.name,
    animal: r.animal,
    assigneeUserIds: r.assigneeUserIds,
    assigneeOrgIds: r.assigneeOrgIds,
    inheritedAssignees: r.inheritedAssignees,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export function toPipeline(r: PipelineRow): Pipeline {
  return {
    id: r.id,
    creatorUserId: r.creatorUserId,
    name: r.name,
    predictorIds: r.predictorIds,
    organId: r.organId,
    assigneeOrgIds: r.assigneeOrgIds,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export function toPredictor(r: PredictorRow): Predictor {
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    archiveAt: iso(r.archiveAt),
    creatorUserId: r.creatorUserId,
    organizationId: r.organizationId,
    storageStatus: r.storageStatus as StorageStatus,
    status: r.status,
    name: r.name,
    title: r.title,
    version: r.version,
    mediaType: r.mediaType,
    organId: r.organId,
    scanType: r.scanType,
    inputPixelScale: r.inputPixelScale,
    outputPixelScale: r.outputPixelScale,
    outputTileShape: r.outputTileShape,
    outputTileOverlap: r.outputTileOverlap,
    inputDataType: r.inputDataType,
    outputDataType: r.outputDataType,
    inputChannels: r.inputChannels,
    outputChannels: r.outputChannels,
    uuid: r.uuid,
    defaultViewerSettings: r.defaultViewerSettings,
  };
}
