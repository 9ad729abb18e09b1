// Health and readiness of this process, for a load balancer or an orchestrator: /v2/health says what
// the process is (web server, with or without the job worker) and which parts it uses; /v2/health/ready
// says whether it reaches them now (503 when the database or the file storage does not answer, so a
// balancer stops sending it requests). Public, and never an internal message: only part names and
// 'ok' / 'unreachable'.
import type { FastifyInstance } from 'fastify';
import { storageFor } from '../storage';
import { uploadSettingsFromEnv } from '../uploads/config';

/** How long a part may take to answer before it counts as unreachable. */
const PROBE_MS = 3000;

type PartState = 'ok' | 'unreachable';

async function probe(check: () => Promise<unknown>): Promise<PartState> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), PROBE_MS);
  });
  try {
    await Promise.race([check(), late]);
    return 'ok';
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  // The same instance the upload routes and the job worker use (storageFor is per data directory).
  const storage = storageFor({ dataDir: app.ctx.config.dataDir, expiryMs: uploadSettingsFromEnv().expiryMs });
  const describe = () => ({
    role: app.ctx.jobs.started ? 'web+worker' : 'web',
    jobs: app.ctx.jobs.started ? { concurrency: app.ctx.jobs.concurrency } : null,
    database: app.ctx.database.kind,
    storage: storage.kind === 's3' ? 's3' : 'disk',
  });

  app.get('/health', { config: { public: true }, schema: { hide: true } }, async () => ({
    ok: true,
    ...describe(),
  }));

  app.get('/health/ready', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    const [database, files] = await Promise.all([
      probe(() => app.ctx.database.query('SELECT 1')),
      probe(() => storage.exists('health/probe')),
    ]);
    const ready = database === 'ok' && files === 'ok';
    return reply
      .status(ready ? 200 : 503)
      .send({ ready, ...describe(), parts: { database, storage: files } });
  });
}
