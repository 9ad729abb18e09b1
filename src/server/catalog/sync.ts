// Organs, pipelines and predictors in the sync feed (DESIGN "Pull"), readable per src/access scopes.
import { organs, pipelines, predictors } from '../db/schema';
import type { SyncSource } from '../sync/kinds';
import {
  toOrgan,
  toPipeline,
  toPredictor,
  type OrganRow,
  type PipelineRow,
  type PredictorRow,
} from './entities';

export const catalogSyncSources: readonly SyncSource[] = [
  {
    kind: 'organs',
    type: 'Organ',
    table: organs,
    idColumn: organs.id,
    changeSeqColumn: organs.changeSeq,
    scope: {},
    toEntities: async (_db, rows) => rows.map((r) => toOrgan(r as OrganRow)),
  },
  {
    kind: 'pipelines',
    type: 'Pipeline',
    table: pipelines,
    idColumn: pipelines.id,
    changeSeqColumn: pipelines.changeSeq,
    scope: { assigneeOrgIds: pipelines.assigneeOrgIds },
    toEntities: async (_db, rows) => rows.map((r) => toPipeline(r as PipelineRow)),
  },
  {
    kind: 'predictors',
    type: 'Predictor',
    table: predictors,
    idColumn: predictors.id,
    changeSeqColumn: predictors.changeSeq,
    scope: { organizationId: predictors.organizationId, creatorUserId: predictors.creatorUserId },
    toEntities: async (_db, rows) => rows.map((r) => toPredictor(r as PredictorRow)),
  },
];
