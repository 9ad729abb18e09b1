// `npm run worker`: a process that only runs jobs, against the same database (DATABASE_URL) as the servers.
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { sweepScheduledArchives } from './handlers';
import { STORAGE_SWEEP_MS } from './kinds';

const app = await buildApp({ config: loadConfig(), logger: true });
app.ctx.jobs.start();
setInterval(() => void sweepScheduledArchives(app.ctx.db).catch(() => undefined), STORAGE_SWEEP_MS);
app.log.info(`job worker ${app.ctx.jobs.id} started`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void app.close().then(() => process.exit(0)));
