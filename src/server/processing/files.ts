// Where an image's files and derived tiles live. An image's `storageKey` names its main file in the
// file storage (DATA_DIR/files or the S3 bucket); the data folder of a folder format (MIRAX) sits
// beside it, named like the main file without extension. Tiles are always on the local disk.
import path from 'node:path';
import { slideFormatOf } from '../../api/slide-formats';
import { openSlide } from '../slides/registry';
import type { Slide } from '../slides/types';
import type { FileStorage } from '../storage';

export const filesRoot = (dataDir: string) => path.join(dataDir, 'files');
export const tilesDir = (dataDir: string, imageId: string) => path.join(dataDir, 'tiles', imageId);

/** The storage keys a reader opens: the main file, plus the files of its data folder if it has one. */
export async function slideKeys(storage: FileStorage, storageKey: string): Promise<string[]> {
  if (!slideFormatOf(storageKey)?.folder) return [storageKey];
  const dataFolder = storageKey.slice(0, -path.posix.extname(storageKey).length);
  return [storageKey, ...(await storage.list(`${dataFolder}/`))];
}

/** Opens the slide `keys` name through the storage: the file in place on disk, ranged reads from S3. */
export function openStoredSlide(
  storage: FileStorage,
  keys: string[],
  opts: { scene?: number; maxPixels?: number },
): Promise<Slide> {
  return openSlide(keys, { ...opts, openFile: (key) => storage.openSource(key) });
}
