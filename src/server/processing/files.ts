// Where an image's files and derived tiles live. An image's `storageKey` names its main file in the
// file storage (DATA_DIR/files or the S3 bucket); a MIRAX slide's data folder sits beside it, named
// like the .mrxs without extension. Tiles are always on the local disk.
import path from 'node:path';
import type { FileStorage } from '../storage';

export const filesRoot = (dataDir: string) => path.join(dataDir, 'files');
export const tilesDir = (dataDir: string, imageId: string) => path.join(dataDir, 'tiles', imageId);

/** The storage keys a reader opens: the main file, plus an .mrxs's data folder files. */
export async function slideKeys(storage: FileStorage, storageKey: string): Promise<string[]> {
  if (path.posix.extname(storageKey).toLowerCase() !== '.mrxs') return [storageKey];
  const dataFolder = storageKey.slice(0, -path.posix.extname(storageKey).length);
  return [storageKey, ...(await storage.list(`${dataFolder}/`))];
}
