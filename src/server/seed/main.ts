// `npm run seed:demo`: opens the configured database (PGlite in DATA_DIR, or DATABASE_URL), runs the
// migrations, the first-start bootstrap and default organs, seeds the demo lab once, and prints its sign-ins.
import path from 'node:path';
import { bootstrap } from '../bootstrap';
import { seedDefaultOrgans } from '../catalog/default-organs';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DEMO_ORGANIZATION, demoSummary, demoSummaryLines, seedDemo } from './demo';

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
  await seedDefaultOrgans(database.db);
  const seeded = await seedDemo(database.db);
  console.log(
    seeded
      ? demoSummaryLines(demoSummary(seeded)).join('\n')
      : `The demo (${DEMO_ORGANIZATION}) was seeded before: nothing to do.`,
  );
} finally {
  await database.close();
}
