// Requests of the catalogue calls: organs, pipelines and predictors (assays) of spec §3 and §7, which
// platform administrators manage (§1) and everyone (organs, predictors) or the assigned organizations
// (pipelines) read.
import { z } from 'zod';
import { Id } from './common';
import { StorageStatuses } from './enums';
import { OrderDirection, isoDateParam, pageParams, repeated } from './lists';
import { createBody, setOps } from './organizations';
import { SET_FIELDS } from './set-fields';

const name = z.string().trim().min(1, 'Name is required').max(100);
/** Catalogue lists read best alphabetically; the order can still be turned around. */
const catalogPage = (maxLimit: number, defaultLimit: number) => ({
  ...pageParams(maxLimit, defaultLimit),
  orderBy: z.enum(['name', 'createdAt', 'updatedAt']).default('name'),
  orderDirection: OrderDirection.default('asc'),
});

// ---- Organs -----------------------------------------------------------------------------------

/** The organ list is loaded whole by the app (`?limit=100`, §7, §9). */
export const ORGAN_LIST_MAX = 100;

export const OrganFields = z.strictObject({
  name,
  animal: z.string().trim().min(1, 'Animal is required').max(50),
});
export const OrganCreateBody = createBody('organ', OrganFields);
export const OrganPatchBody = z.strictObject({ organ: OrganFields.partial().optional() });
export const OrganListQuery = z.object({
  ...catalogPage(ORGAN_LIST_MAX, ORGAN_LIST_MAX),
  animal: repeated(z.string().max(50)),
  search: z.string().max(100).optional(),
  id: repeated(Id),
});

// ---- Pipelines --------------------------------------------------------------------------------

const ids = z.array(Id).max(500);
export const PipelineFields = z.strictObject({
  name,
  organId: Id.nullable().optional(),
  predictorIds: ids.optional(),
  assigneeOrgIds: ids.optional(),
});
export const PipelineCreateBody = createBody('pipeline', PipelineFields);
export const PipelinePatchBody = z.strictObject({
  pipeline: PipelineFields.partial().optional(),
  ...setOps(SET_FIELDS.pipelines),
});
export const PipelineListQuery = z.object({
  ...catalogPage(100, 25),
  organId: repeated(Id),
  search: z.string().max(100).optional(),
  id: repeated(Id),
});

// ---- Predictors -------------------------------------------------------------------------------

const nullableText = (max: number) => z.string().max(max).nullable().optional();
const scale = z.number().positive().finite().nullable().optional();
export const PredictorFields = z.strictObject({
  name,
  title: z.string().max(200).optional(),
  version: z.string().max(50).optional(),
  status: z.string().max(50).optional(),
  organizationId: Id.nullable().optional(),
  archiveAt: isoDateParam.nullable().optional(),
  storageStatus: z.enum(StorageStatuses).optional(),
  mediaType: nullableText(100),
  organId: Id.nullable().optional(),
  scanType: nullableText(50),
  inputPixelScale: scale,
  outputPixelScale: scale,
  outputTileShape: z.array(z.number().int().positive()).max(4).nullable().optional(),
  outputTileOverlap: z.number().int().min(0).nullable().optional(),
  inputDataType: nullableText(50),
  outputDataType: nullableText(50),
  inputChannels: z.array(z.unknown()).max(100).optional(),
  outputChannels: z.array(z.unknown()).max(100).optional(),
  uuid: Id.nullable().optional(),
  defaultViewerSettings: z.record(z.string(), z.unknown()).nullable().optional(),
});
export const PredictorCreateBody = createBody('predictor', PredictorFields);
export const PredictorPatchBody = z.strictObject({ predictor: PredictorFields.partial().optional() });
export const PredictorListQuery = z.object({
  ...catalogPage(100, 25),
  /** Part of the name or title, any case ("filter by name", §7). */
  name: z.string().max(100).optional(),
  organId: repeated(Id),
  scanType: repeated(z.string().max(50)),
  id: repeated(Id),
});
