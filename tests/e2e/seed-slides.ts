// Before the e2e server starts: puts fixture slides into its data directory as uploaded images with
// their processing queued, so the viewer tests have real slides (the server processes them on start).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/client';
import { images, organizations, scanGroups } from '../../src/server/db/schema';
import { enqueue } from '../../src/server/jobs/queue';
import { PROCESS_IMAGE } from '../../src/server/jobs/kinds';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');

export interface SeededSlide {
  scanGroupId: string;
  simpleId: string;
  imageId: string;
}

/** Run between two server starts (PGlite allows one process at a time). */
export async function seedSlides(dataDir: string): Promise<Record<string, SeededSlide>> {
  const database = await openDatabase(path.join(dataDir, 'db'));
  const [org] = await database.db.select().from(organizations);
  const slides: Record<string, SeededSlide> = {};
  for (const [key, file, simpleId] of [
    ['brightfield', 'qptiff/brightfield.qptiff', 'FIXTURE-QP-0002'],
    ['fluorescence', 'qptiff/fluor-4ch.qptiff', 'FIXTURE-QP-0001'],
  ] as const) {
    const scanGroupId = crypto.randomUUID();
    const imageId = crypto.randomUUID();
    const name = path.basename(file);
    const dest = path.join(dataDir, 'files', 'images', imageId, name);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, file), dest);
    await database.db
      .insert(scanGroups)
      .values({ id: scanGroupId, simpleId, organizationId: org.id, animal: 'Human' });
    await database.db
      .insert(images)
      .values({ id: imageId, name, organizationId: org.id, storageKey: `images/${imageId}/${name}` });
    await enqueue(database.db, PROCESS_IMAGE, { imageId });
    slides[key] = { scanGroupId, simpleId, imageId };
  }
  await database.close();
  return slides;
}
