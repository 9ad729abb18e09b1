// The catalogue's routes under one registration: /v2/organs, /v2/pipelines, /v2/predictors, and
// their sync sources.
import type { FastifyPluginAsync } from 'fastify';
import { organRoutes } from './organs';
import { pipelineRoutes } from './pipelines';
import { predictorRoutes } from './predictors';

export const catalogRoutes: FastifyPluginAsync = async (v2) => {
  await v2.register(organRoutes, { prefix: '/organs' });
  await v2.register(pipelineRoutes, { prefix: '/pipelines' });
  await v2.register(predictorRoutes, { prefix: '/predictors' });
};
