// Files on the local disk under DATA_DIR/files (the default). Uploads in progress are @tus/file-store
// resources in files/uploads (<id> with the bytes, <id>.json with tus's metadata); a finished upload is
// renamed into place, which costs no copy.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { SlideFile, type ByteSource } from '../slides/file';
import { assertKey, type FileStorage, type StorageSettings } from './index';

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

export class LocalStorage implements FileStorage {
  readonly kind = 'local' as const;
  readonly checksumMode = 'inline' as const;
  readonly uploads: FileStore;
  private readonly uploadDir: string;
  readonly settings: StorageSettings;

  constructor(
    /** DATA_DIR/files */
    readonly root: string,
    expiryMs: number,
  ) {
    this.settings = { kind: 'local', root, expiryMs };
    this.uploadDir = path.join(root, 'uploads');
    fs.mkdirSync(this.uploadDir, { recursive: true });
    this.uploads = new FileStore({ directory: this.uploadDir, expirationPeriodInMilliseconds: expiryMs });
  }

  /** The absolute path of a key (checked to stay inside the root). */
  pathOf(key: string): string {
    assertKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  private uploadPath(id: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`storage: bad upload id "${id}"`);
    return path.join(this.uploadDir, id);
  }

  uploadFile(uploadId: string): string {
    return this.uploadPath(uploadId);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const st = await fsp.stat(this.pathOf(key));
      return st.isFile() ? st.size : undefined;
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  async stream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.pathOf(key);
    await fsp.access(file);
    return fs.createReadStream(file, range ? { start: range.start, end: range.end } : undefined);
  }

  async putFile(key: string, file: string): Promise<void> {
    const to = this.pathOf(key);
    await fsp.mkdir(path.dirname(to), { recursive: true });
    await fsp.copyFile(file, to);
  }

  async adoptFile(key: string, file: string): Promise<void> {
    const to = this.pathOf(key);
    await fsp.mkdir(path.dirname(to), { recursive: true });
    try {
      await fsp.rename(file, to);
    } catch (e) {
      // Another disk (a data folder mounted in parts): a copy, then the file removed.
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      await fsp.copyFile(file, to);
      await fsp.rm(file, { force: true });
    }
  }

  async delete(keyOrPrefix: string): Promise<void> {
    const target = this.pathOf(keyOrPrefix.replace(/\/$/, ''));
    await fsp.rm(target, { recursive: keyOrPrefix.endsWith('/'), force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const base = prefix.replace(/\/$/, '');
    const dir = this.pathOf(base);
    const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true }).catch((e: unknown) => {
      if (isMissing(e)) return [];
      throw e;
    });
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(this.root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .sort();
  }

  async adoptUpload(uploadId: string, key: string): Promise<void> {
    const from = this.uploadPath(uploadId);
    const to = this.pathOf(key);
    await fsp.mkdir(path.dirname(to), { recursive: true });
    try {
      await fsp.rename(from, to);
    } catch (e) {
      // Already moved by an earlier attempt that crashed before it could record so.
      if (!(isMissing(e) && (await this.exists(key)))) throw e;
    }
    await fsp.rm(`${from}.json`, { force: true });
  }

  async removeUpload(uploadId: string): Promise<void> {
    const file = this.uploadPath(uploadId);
    await fsp.rm(file, { force: true });
    await fsp.rm(`${file}.json`, { force: true });
  }

  openSource(key: string): Promise<ByteSource> {
    return SlideFile.open(this.pathOf(key));
  }

  async freeBytes(): Promise<number | undefined> {
    const st = await fsp.statfs(this.uploadDir).catch(() => undefined);
    return st ? st.bavail * st.bsize : undefined;
  }
}
