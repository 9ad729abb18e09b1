// POST /v2/demo-lab: a super administrator loads the demo lab into the running server (the first-run
// checklist's button), the same seed as `npm start -- --demo` and `npm run seed:demo`. Clients see
// the new rows through their next pull, like any other change.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DemoLabResult } from '../../api/first-run';
import { apiError } from '../http/errors';
import { accessOf } from '../http/guard';
import { demoSummary, seedDemo } from './demo';

export const demoLabRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/', { schema: { response: { 200: DemoLabResult } } }, async (request) => {
    if (!accessOf(request).actor.superAdmin) throw apiError('DEMO_SUPER_ADMIN_ONLY');
    const seeded = await seedDemo(app.ctx.db);
    if (!seeded) throw apiError('DEMO_LOADED');
    return demoSummary(seeded);
  });
};
