// The server process of `npm start` / `npm run dev`: opens the database, migrates, creates the first
// administrator on first start, serves the app and the API, and prints where to sign in.
import { buildApp } from './app';
import { bootstrap } from './bootstrap';
import { loadConfig } from './config';
import { startedOrigin } from './http/origins';
import { sweepScheduledArchives } from './jobs/handlers';
import { STORAGE_SWEEP_MS } from './jobs/kinds';

const dev = process.argv.includes('--dev');
const config = loadConfig();
const app = await buildApp({ config, logger: true, dev });
const first = await bootstrap(app.ctx.db, {
  adminEmail: config.adminEmail,
  adminPassword: config.adminPassword,
});
await app.listen({ port: config.port, host: config.host });
// Jobs run in this process unless workers run on their own (`npm run worker`, WORKER=off here).
if (process.env.WORKER !== 'off') {
  app.ctx.jobs.start();
  const sweep = setInterval(
    () => void sweepScheduledArchives(app.ctx.db).catch(() => undefined),
    STORAGE_SWEEP_MS,
  );
  sweep.unref(); // never keeps the process alive on its own
}

const url = startedOrigin(config, config.port);
const lines = [
  `Tessera is running at ${url}`,
  `Database: ${app.ctx.database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/db`}`,
];
if (first) {
  lines.push(`First administrator created: ${first.email}`);
  lines.push(
    first.generatedPassword
      ? `Password (shown once, change it after signing in): ${first.generatedPassword}`
      : 'Password: the ADMIN_PASSWORD you set',
  );
  lines.push(
    'To fill it with a demo lab (teams, users, organs, pipelines): stop it, run `npm run seed:demo`, start again.',
  );
}
if (config.trustProxy && !config.publicUrl)
  lines.push(
    'TRUST_PROXY is set without PUBLIC_URL: e-mailed links will point at this address, not the proxy’s.',
  );
console.log(`\n${lines.map((l) => `  ${l}`).join('\n')}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0));
  });
}
