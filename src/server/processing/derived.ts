// What processing derives from an image, read and written through the file storage (DATA_DIR/files or
// the S3 bucket), so any server of the install serves it: the pyramid pack (pack-format.ts: every tile,
// the .dzi descriptors and layers.json in one object) and the thumbnail and label picture as objects of
// their own (the signed preview links stream them with byte ranges, and the alignment job reads the
// thumbnail alone). Three objects per slide, under derived/<imageId>/ (storage/index.ts).
// An install whose images were processed into loose files under DATA_DIR/tiles/<imageId>/ keeps
// serving them: a file is looked for in the pack, then in that folder.
// Packs never change for an image id (a pack is written once, when the pyramid is done), so the index
// of recently used packs stays in memory with the pack held open (bounded by count and by index
// bytes): a tile is then one ranged read.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ByteSource } from '../slides/file';
import { storageFor, type FileStorage } from '../storage';
import { LocalStorage } from '../storage/local';
import { uploadSettingsFromEnv } from '../uploads/config';
import { tilesDir } from './files';
import { PackError, PackIndex } from './pack-format';

export const derivedPrefix = (imageId: string) => `derived/${imageId}/`;
export const packKey = (imageId: string) => `derived/${imageId}/pyramid.pack`;
export type PreviewName = 'thumbnail.jpg' | 'label.png';
export const previewKey = (imageId: string, name: PreviewName) => `derived/${imageId}/${name}`;
export const isPreview = (name: string): name is PreviewName =>
  name === 'thumbnail.jpg' || name === 'label.png';

/** Packs held open at once, and the bytes of their indexes (12 bytes a tile). */
const MAX_PACKS = 64;
const MAX_INDEX_BYTES = 64 * 2 ** 20;
/**
 * Ranged reads of a pack in a bucket: small blocks (a tile is tens of KiB, and neighbouring tiles of
 * a row were written side by side), a small cache per pack.
 */
const PACK_RANGED = { blockBytes: 256 * 1024, cacheBytes: 1024 * 1024 };
/** How long an evicted pack stays open after its last read. */
const CLOSE_DELAY_MS = 5000;

const storages = new Map<string, FileStorage>();
/** The storage of a data directory, as the upload routes and the processing job have it. */
export function storageOf(dataDir: string): FileStorage {
  let s = storages.get(dataDir);
  if (!s) storages.set(dataDir, (s = storageFor({ dataDir, expiryMs: uploadSettingsFromEnv().expiryMs })));
  return s;
}

/**
 * A pack on the local disk read through its file descriptor with the callback API: a tile read costs
 * about half the CPU of FileHandle's promise reads (bench/tiles.ts), and a viewer asks for hundreds a
 * second.
 */
class LocalPack implements ByteSource {
  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly size: number,
  ) {}
  static open(file: string): Promise<LocalPack> {
    return new Promise((resolve, reject) =>
      fs.open(file, 'r', (error, fd) => {
        if (error) return reject(error);
        fs.fstat(fd, (statError, stat) => {
          if (statError) {
            fs.close(fd, () => undefined);
            reject(statError);
          } else resolve(new LocalPack(file, fd, stat.size));
        });
      }),
    );
  }
  read(position: number, length: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      if (position < 0 || position + length > this.size) return reject(new PackError('read past its end'));
      const buffer = Buffer.allocUnsafe(length);
      fs.read(this.fd, buffer, 0, length, position, (error, bytesRead) => {
        if (error) reject(error);
        else if (bytesRead !== length) reject(new PackError('cut off'));
        else resolve(buffer);
      });
    });
  }
  close(): Promise<void> {
    return new Promise((resolve) => fs.close(this.fd, () => resolve()));
  }
}

interface OpenPack {
  index: PackIndex;
  source: ByteSource;
  /** Reads in flight: an evicted pack is closed once none is. */
  users: number;
  evicted: boolean;
}

/** A file of a pack: its bytes, and an ETag that changes if the pack is ever written again. */
export interface PackedFile {
  body: Uint8Array;
  etag: string;
}

class PackCache {
  /** dataDir + image id → the open pack; Map order is the LRU order. Missing packs are not kept. */
  private readonly open = new Map<string, Promise<OpenPack | undefined>>();
  private indexBytes = 0;

  /**
   * Runs `work` on image `imageId`'s pack; undefined when it has none. A pack that cannot be read
   * throws PackError (and is not kept: the next request reads it again).
   */
  async use<T>(
    storage: FileStorage,
    dataDir: string,
    imageId: string,
    work: (pack: OpenPack) => Promise<T>,
  ): Promise<T | undefined> {
    const key = `${dataDir}\0${imageId}`;
    let entry = this.open.get(key);
    if (entry) {
      this.open.delete(key);
      this.open.set(key, entry);
    } else {
      entry = this.load(storage, imageId);
      this.open.set(key, entry);
      entry.then(
        (pack) => {
          if (this.open.get(key) !== entry) return pack && this.release(pack, true); // forgotten meanwhile
          if (!pack) return void this.open.delete(key);
          this.indexBytes += pack.index.memoryBytes;
          this.trim();
        },
        () => {
          if (this.open.get(key) === entry) this.open.delete(key);
        },
      );
    }
    const pack = await entry;
    if (!pack) return undefined;
    pack.users++;
    try {
      return await work(pack);
    } finally {
      this.release(pack, false);
    }
  }

  /** Forgets image `imageId`'s pack (written again, or removed). */
  async forget(dataDir: string, imageId: string): Promise<void> {
    const key = `${dataDir}\0${imageId}`;
    const entry = this.open.get(key);
    if (!entry) return;
    this.open.delete(key);
    const pack = await entry.catch(() => undefined);
    if (pack) {
      this.indexBytes -= pack.index.memoryBytes;
      this.release(pack, true);
    }
  }

  private async load(storage: FileStorage, imageId: string): Promise<OpenPack | undefined> {
    const key = packKey(imageId);
    if ((await storage.size(key)) === undefined) return undefined;
    const source =
      storage instanceof LocalStorage
        ? await LocalPack.open(storage.pathOf(key))
        : await storage.openSource(key, PACK_RANGED);
    try {
      const index = await PackIndex.read(source.size, (offset, length) =>
        source.read(offset, length, 'pack', 'its index'),
      );
      return { index, source, users: 0, evicted: false };
    } catch (error) {
      await source.close().catch(() => undefined);
      throw error instanceof PackError ? error : new PackError(`unreadable (${(error as Error).message})`);
    }
  }

  private trim(): void {
    for (const [key, entry] of this.open) {
      if (this.open.size <= MAX_PACKS && this.indexBytes <= MAX_INDEX_BYTES) break;
      this.open.delete(key);
      void entry.then((pack) => {
        if (!pack) return;
        this.indexBytes -= pack.index.memoryBytes;
        this.release(pack, true);
      });
    }
  }

  /**
   * Ends a use (or evicts); an evicted pack is closed a while after its last use, since a request that
   * took it from the map just before may not have started its read yet.
   */
  private release(pack: OpenPack, evict: boolean): void {
    if (evict) pack.evicted = true;
    else pack.users--;
    if (!pack.evicted || pack.users > 0) return;
    setTimeout(() => {
      if (pack.users === 0) void pack.source.close().catch(() => undefined);
    }, CLOSE_DELAY_MS).unref();
  }
}

const packs = new PackCache();

/**
 * File `name` of image `imageId`'s pack: its bytes, 'absent' when the pack has no such file, or
 * undefined when the image has no pack. A damaged pack throws PackError.
 */
export async function readPacked(
  storage: FileStorage,
  dataDir: string,
  imageId: string,
  name: string,
): Promise<PackedFile | 'absent' | undefined> {
  return packs.use(storage, dataDir, imageId, async ({ index, source }) => {
    const entry = index.find(name);
    if (!entry) return 'absent' as const;
    let body: Uint8Array;
    try {
      body = await source.read(entry.offset, entry.length, 'pack', name);
    } catch (error) {
      throw new PackError(`${name} cannot be read (${(error as Error).message})`);
    }
    return {
      body: Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      etag: `"p-${index.id}-${entry.offset.toString(16)}"`,
    };
  });
}

/** Whether image `imageId`'s pyramid is complete: its pack, or the loose folder's layers.json. */
export async function pyramidDone(storage: FileStorage, dataDir: string, imageId: string): Promise<boolean> {
  const packed = await packs
    .use(storage, dataDir, imageId, async () => true)
    .catch((error: unknown) => {
      // A damaged pack is a pyramid all the same: what it holds answers with its own error.
      if (error instanceof PackError) return true;
      throw error;
    });
  return packed ?? fileExists(path.join(tilesDir(dataDir, imageId), 'layers.json'));
}

export const forgetPack = (dataDir: string, imageId: string) => packs.forget(dataDir, imageId);

const fileExists = (file: string) =>
  fsp.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

/** The whole bytes of a (small) stored key, or undefined when it does not exist. */
export async function readKey(storage: FileStorage, key: string): Promise<Buffer | undefined> {
  if ((await storage.size(key)) === undefined) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.stream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * One derived file of an image, wherever it is (a preview's own key, the pack, or the loose folder of
 * an older install), or undefined when there is none. For readers other than the tile route (the
 * alignment job, GeoJSON bounds); a damaged pack throws PackError.
 */
export async function readDerived(
  dataDir: string,
  imageId: string,
  name: string,
): Promise<Buffer | undefined> {
  const storage = storageOf(dataDir);
  if (isPreview(name)) {
    const bytes = await readKey(storage, previewKey(imageId, name));
    if (bytes) return bytes;
  } else {
    const packed = await readPacked(storage, dataDir, imageId, name);
    if (packed === 'absent') return undefined;
    if (packed) return Buffer.from(packed.body.buffer, packed.body.byteOffset, packed.body.byteLength);
  }
  return fsp.readFile(path.join(tilesDir(dataDir, imageId), name)).catch(() => undefined);
}

/** Writes small bytes to a temporary file in `work` and stores them at `key`. */
export async function storeBytes(storage: FileStorage, key: string, bytes: Uint8Array, work: string) {
  const tmp = workFile(work, key.replace(/\//g, '_'), 'tmp');
  await fsp.writeFile(tmp, bytes);
  try {
    await storage.adoptFile(key, tmp);
  } finally {
    await fsp.rm(tmp, { force: true });
  }
}

/** Removes everything derived from image `imageId`: its stored objects and any loose folder. */
export async function removeDerived(storage: FileStorage, dataDir: string, imageId: string): Promise<void> {
  await forgetPack(dataDir, imageId);
  await storage.delete(derivedPrefix(imageId));
  await fsp.rm(tilesDir(dataDir, imageId), { recursive: true, force: true });
}

/** Where the processing job writes a pack before it is stored (DATA_DIR/work: the data folder's disk). */
export const workDir = (dataDir: string) => path.join(dataDir, 'work');

/**
 * Whose a file in DATA_DIR/work is, in its name: this host and process (a data folder may be shared by
 * the processes of one machine, or even of several).
 */
const OWNER = `${os.hostname().replace(/[^A-Za-z0-9_-]/g, '_')}-${process.pid}`;
const OWNED = /\.([A-Za-z0-9_-]+)-(\d+)\.(pack|tmp)$/;

/** A file of this process in the work folder `work`: `<name>.<host>-<pid>.<ext>`. */
export const workFile = (work: string, name: string, ext: 'pack' | 'tmp') =>
  path.join(work, `${name}.${OWNER}.${ext}`);

/**
 * Removes the files in the work folder `work` that a process of this host left when it ended mid-way
 * (killed while writing a pack of hundreds of megabytes); another host's files, and those of a process
 * still running, stay. Returns how many were removed.
 */
export async function sweepWork(work: string): Promise<number> {
  const host = OWNER.slice(0, OWNER.lastIndexOf('-'));
  let removed = 0;
  for (const name of await fsp.readdir(work).catch(() => [] as string[])) {
    const m = OWNED.exec(name);
    if (!m || m[1] !== host || processAlive(Number(m[2]))) continue;
    await fsp.rm(path.join(work, name), { force: true });
    removed++;
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, as another user's.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export const statLoose = (full: string) =>
  new Promise<fs.Stats | undefined>((resolve) =>
    fs.stat(full, (err, stat) => resolve(err ? undefined : stat)),
  );
