// A generated slide put in place as the upload route leaves it (the file, and an .mrxs slide's data
// folder beside it, under the server's storage; its image row), for the benches that time processing
// and what follows it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { images, organizations } from '../../src/server/db/schema';
import type { BenchServer } from './server';

/** Links (or copies) `from` to `to`, making `to`'s folder. */
function put(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}

/** Places `file` as an uploaded image of `organizationId` (else the first organization); its id. */
export async function placeUploadedImage(
  server: BenchServer,
  file: string,
  organizationId?: string,
): Promise<{ id: string; name: string }> {
  const { app, dataDir } = server;
  const orgId =
    organizationId ?? (await app.ctx.db.select({ id: organizations.id }).from(organizations))[0].id;
  const id = crypto.randomUUID();
  const name = path.basename(file);
  const dest = path.join(dataDir, 'files', 'images', id, name);
  put(file, dest);
  if (file.endsWith('.mrxs')) {
    const folder = file.slice(0, -'.mrxs'.length);
    for (const entry of fs.readdirSync(folder))
      put(path.join(folder, entry), path.join(dest.slice(0, -'.mrxs'.length), entry));
  }
  await app.ctx.db
    .insert(images)
    .values({ id, name, organizationId: orgId, storageKey: `images/${id}/${name}` });
  return { id, name };
}
