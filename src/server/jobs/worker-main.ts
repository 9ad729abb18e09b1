// `npm run worker`: a process that only runs jobs, against the same database (DATABASE_URL) as the
// servers. It runs JOB_CONCURRENCY jobs at once (default: one per core), periodic work included.
import os from 'node:os';
import { buildApp } from '../app';
import { loadConfig } from '../config';

const app = await buildApp({
  config: loadConfig(),
  logger: true,
  jobConcurrency: os.availableParallelism(),
});
app.ctx.jobs.start();
app.log.info(`job worker ${app.ctx.jobs.id} started, ${app.ctx.jobs.concurrency} jobs at once`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void app.close().then(() => process.exit(0)));
