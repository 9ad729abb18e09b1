// `npm run seed:demo`: opens the configured database (PGlite in DATA_DIR, or DATABASE_URL), runs the
// migrations and the first-start bootstrap, seeds the demo lab once, and prints its sign-ins.
import path from 'node:path';
import { bootstrap } from '../bootstrap';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DEMO_ORGANIZATION, seedDemo } from './demo';

const config = loadConfig();
const database = await openDatabase(config.databaseUrl ?? path.join(config.dataDir, 'db'));
try {
  const first = await bootstrap(database.db, {
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
  });
  if (first)
    console.log(
      `First administrator created: ${first.email} / ${first.generatedPassword ?? 'the ADMIN_PASSWORD you set'}`,
    );
  const seeded = await seedDemo(database.db);
  if (!seeded) {
    console.log(`The demo (${DEMO_ORGANIZATION}) was seeded before: nothing to do.`);
  } else {
    const rows = Object.values(seeded.users).map(
      (u) => `  ${u.role.padEnd(34)} ${u.email.padEnd(28)} ${u.password}`,
    );
    console.log(
      [
        `Seeded ${DEMO_ORGANIZATION}: ${Object.keys(seeded.organs).length} organs, ` +
          `${Object.keys(seeded.predictors).length} predictors, ${Object.keys(seeded.pipelines).length} pipelines.`,
        'Demo sign-ins (role, e-mail, password):',
        ...rows,
      ].join('\n'),
    );
  }
} finally {
  await database.close();
}
