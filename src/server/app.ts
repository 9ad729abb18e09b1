// Builds the Fastify application: the /v2 API, its OpenAPI description, and the built app with its
// service worker and manifest. Tests call buildApp() with an in-memory database and inject requests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { FLAT_BODY_KEYS } from '../api/organizations';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase, type Database } from './db/client';
import { Sessions } from './auth/sessions';
import { loadSigningSecret } from './auth/secret';
import { google, turnstile } from './auth/third-party';
import { installAuthentication } from './http/authenticate';
import { installIdempotency } from './http/idempotency';
import { installCrossOriginCheck } from './http/cross-origin';
import { installSecurityHeaders } from './http/security-headers';
import { installInputChecks } from './http/input';
import { installTileAccess } from './processing/tile-access';
import { registerResources } from './routes';
import { installErrorHandler, notFoundBody } from './http/errors';
import { createMailer } from './mail/mailer';
import { healthRoutes } from './health/routes';
import { createJobWorker } from './job-handlers';

export interface BuildOptions {
  config: Config;
  /** An open database; when absent one is opened from the config. */
  database?: Database;
  /** Log to stdout (the server) or stay quiet (tests). */
  logger?: boolean;
  /** Serve the app through Vite's dev server instead of dist/ (npm run dev). */
  dev?: boolean;
  /**
   * Jobs the process runs at once when JOB_CONCURRENCY is not set. A web server that also runs jobs
   * keeps half the cores for its requests; `npm run worker` gives one per core.
   */
  jobConcurrency?: number;
}

/** JOB_CONCURRENCY, else the entry point's default, else half the cores (at least one). */
function jobConcurrency(env: NodeJS.ProcessEnv, fallback?: number): number {
  const set = Number(env.JOB_CONCURRENCY);
  if (Number.isInteger(set) && set > 0) return set;
  return fallback ?? Math.max(1, Math.floor(os.availableParallelism() / 2));
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    logger: opts.logger ? { level: config.logLevel } : false,
    // X-Forwarded-* (client address, protocol, host) only from the proxies TRUST_PROXY names.
    trustProxy: config.trustProxy ?? false,
    bodyLimit: 2 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database =
    opts.database ?? (await openDatabase(config.databaseUrl ?? path.join(config.dataDir, 'db')));
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    sessions: new Sessions(database.db, await loadSigningSecret(database.db, config.jwtSecret)),
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      dataDir: config.dataDir,
      from: config.mailFrom,
      log: app.log,
    }),
    botCheck: config.turnstileSecret
      ? turnstile(config.turnstileSecret, config.turnstileVerifyUrl)
      : undefined,
    google: config.googleClientId ? google(config.googleClientId, config.googleJwksUrl) : undefined,
    jobs: undefined!, // set just below: the worker needs the logger of the built app
  };
  ctx.jobs = createJobWorker({
    db: database.db,
    dataDir: config.dataDir,
    log: app.log,
    concurrency: jobConcurrency(process.env, opts.jobConcurrency),
    leaseMs: config.jobLeaseMs,
    listen: (channel, onPayload) => database.listen(channel, onPayload),
  });
  app.addHook('onClose', () => ctx.jobs.stop());
  app.decorate('ctx', ctx);
  if (!opts.database) app.addHook('onClose', () => database.close());

  installErrorHandler(app);
  await installSecurityHeaders(app, config, { dev: opts.dev });
  await app.register(cookie);
  await app.register(swagger, {
    openapi: { info: { title: 'Tessera v2 API', version: '2.0.0' }, servers: [] },
    transform: describeFlatBodies,
  });

  await app.register(
    async (v2) => {
      installCrossOriginCheck(v2);
      installAuthentication(v2);
      installIdempotency(v2);
      installInputChecks(v2);
      installTileAccess(v2);
      v2.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
        app.swagger(),
      );
      await v2.register(healthRoutes);
      await registerResources(v2);
    },
    { prefix: '/v2' },
  );

  if (opts.dev) await serveViteDev(app);
  else serveBuiltApp(app, config.distDir);
  return app;
}

/** The built app: hashed assets cached for a year, the shell and service worker always revalidated. */
function serveBuiltApp(app: FastifyInstance, distDir: string): void {
  const hasBuild = fs.existsSync(path.join(distDir, 'index.html'));
  if (hasBuild) {
    app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders(res, file) {
        if (file.includes(`${path.sep}assets${path.sep}`))
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        else res.header('Cache-Control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/v2/') || request.url === '/v2';
    const wantsPage = request.method === 'GET' && !isApi && !path.extname(request.url.split('?')[0]);
    if (wantsPage && hasBuild) return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    return reply.status(404).send(notFoundBody(request.method, request.url));
  });
}

async function serveViteDev(app: FastifyInstance): Promise<void> {
  const { createServer } = await import('vite');
  const vite = await createServer({ server: { middlewareMode: true }, appType: 'spa' });
  app.addHook('onClose', () => vite.close());
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/v2')) return done();
    reply.hijack();
    vite.middlewares(request.raw, reply.raw, () => {
      reply.raw.statusCode = 404;
      reply.raw.end();
    });
  });
}

type SchemaTransform = typeof jsonSchemaTransform;
/**
 * The zod → OpenAPI transform, plus: a create body that also takes its fields flat (createBody in
 * src/api/organizations.ts, e.g. the §7 scan-order-lists payload) is described as either form.
 */
const describeFlatBodies: SchemaTransform = (document) => {
  const out = jsonSchemaTransform(document);
  const body = (document.schema as { body?: unknown } | undefined)?.body;
  const key = body ? FLAT_BODY_KEYS.get(body as Parameters<typeof FLAT_BODY_KEYS.get>[0]) : undefined;
  const json = (out.schema as { body?: { properties?: Record<string, unknown> } }).body;
  const flat = key ? json?.properties?.[key] : undefined;
  if (json && flat) (out.schema as { body?: unknown }).body = { anyOf: [json, flat] };
  return out;
};
