// `npm run move-to-postgres`: moves the embedded install of DATA_DIR (PGlite and files on disk) to the
// PostgreSQL database of DATABASE_URL and the bucket of S3_* (docs/deploy.md). Run it once, with
// every Tessera process of that install stopped.
import { loadConfig } from '../config';
import { S3Storage, s3ConfigFromEnv } from '../storage/s3';
import { MoveRefused, moveEmbedded } from './move';

const config = loadConfig();
const s3 = s3ConfigFromEnv(process.env);
try {
  if (!config.databaseUrl) throw new MoveRefused('Set DATABASE_URL to the new, empty PostgreSQL database.');
  console.log(`Moving ${config.dataDir} to PostgreSQL${s3 ? ` and the bucket ${s3.bucket}` : ''}`);
  await moveEmbedded({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    storage: s3 ? new S3Storage(s3, 0) : undefined,
    log: (line) => console.log(line),
  });
  console.log('Done. Start the servers with DATABASE_URL and S3_* set (docs/deploy.md).');
  process.exit(0);
} catch (error) {
  console.error(error instanceof MoveRefused ? error.message : error);
  process.exit(1);
}
