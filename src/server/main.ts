// The server process of `npm start` / `npm run dev`: opens the database, migrates, creates the first
// administrator and the default organ catalogue on first start, loads the demo lab when started with
// `--demo`, serves the app and the API, and prints where to sign in.
import { buildApp } from './app';
import { bootstrap } from './bootstrap';
import { seedDefaultOrgans } from './catalog/default-organs';
import { demoSummary, demoSummaryLines, seedDemo } from './seed/demo';
import { loadConfig } from './config';
import { startedOrigin } from './http/origins';

const dev = process.argv.includes('--dev');
const demo = process.argv.includes('--demo');
const config = loadConfig();
const app = await buildApp({ config, logger: true, dev });
const first = await bootstrap(app.ctx.db, {
  adminEmail: config.adminEmail,
  adminPassword: config.adminPassword,
});
await seedDefaultOrgans(app.ctx.db);
const demoSeeded = demo ? await seedDemo(app.ctx.db) : undefined;
await app.listen({ port: config.port, host: config.host });
// Jobs run in this process unless workers run on their own (`npm run worker`, WORKER=off here).
// Periodic work (archive sweep, upload expiry, pruning) runs as scheduled jobs of the queue.
if (process.env.WORKER !== 'off') app.ctx.jobs.start();

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
  if (!demo)
    lines.push(
      'For a demo lab (teams, users, organs, pipelines): `npm start -- --demo`, or Load the demo lab in the Setup checklist.',
    );
}
if (demoSeeded) lines.push(...demoSummaryLines(demoSummary(demoSeeded)));
else if (demo) lines.push('The demo lab was loaded before.');
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
