// Where an image's files and derived tiles live. An image's `storageKey` names its main file in the
// file storage (DATA_DIR/files or the S3 bucket); the data folder of a folder format (MIRAX) sits
// beside it, named like the main file without extension. Tiles are always on the local disk.
import path from 'node:path';
import { slideFormatOf } from '../../api/slide-formats';
import type { FileStorage } from '../storage';

export const filesRoot = (dataDir: string) => path.join(dataDir, 'files');
export const tilesDir = (dataDir: string, imageId: string) => path.join(dataDir, 'tiles', imageId);

/** The storage keys a reader opens: the main file, plus the files of its data folder if it has one. */
export async function slideKeys(storage: FileStorage, storageKey: string): Promise<string[]> {
  if (!slideFormatOf(storageKey)?.folder) return [storageKey];
  const dataFolder = storageKey.slice(0, -path.posix.extname(storageKey).length);
  return [storageKey, ...(await storage.list(`${dataFolder}/`))];
}
