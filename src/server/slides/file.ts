// Positional reads from one file without loading it whole: slides are often several gigabytes.
// Quirk: offsets are JS numbers (exact to 2^53 bytes, 8 PiB), read from 64-bit fields as bigint then narrowed.

import { open, type FileHandle } from 'node:fs/promises';
import { SlideErrors } from './errors';

/**
 * Where a reader gets its bytes: a file on disk, an object in the bucket read by ranges (storage/ranged.ts),
 * or a buffer (CZI embeds whole CZI files as attachments).
 */
export interface ByteSource {
  readonly path: string;
  readonly size: number;
  read(position: number, length: number, format: string, what: string): Promise<Uint8Array>;
  close(): Promise<void>;
}

export class BytesSource implements ByteSource {
  readonly size: number;
  constructor(
    readonly path: string,
    private readonly bytes: Uint8Array,
  ) {
    this.size = bytes.length;
  }
  async read(position: number, length: number, format: string, what: string): Promise<Uint8Array> {
    if (position < 0 || length < 0 || position + length > this.size)
      throw SlideErrors.truncated(format, what);
    return this.bytes.subarray(position, position + length);
  }
  async close(): Promise<void> {}
}

export class SlideFile implements ByteSource {
  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    /** File size in bytes. */
    readonly size: number,
  ) {}

  static async open(path: string): Promise<SlideFile> {
    const handle = await open(path, 'r');
    const { size } = await handle.stat();
    return new SlideFile(path, handle, size);
  }

  /**
   * Exactly `length` bytes at `position`; throws the format's 'truncated' error naming `what` when the
   * file ends first (a cut-off upload is the commonest broken file).
   */
  async read(position: number, length: number, format: string, what: string): Promise<Uint8Array> {
    if (position < 0 || length < 0 || position + length > this.size)
      throw SlideErrors.truncated(format, what);
    const buf = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.handle.read(buf, done, length - done, position + done);
      if (bytesRead === 0) throw SlideErrors.truncated(format, what);
      done += bytesRead;
    }
    return buf;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/**
 * Opens one file of an upload by its name in the upload's file list (a path on disk, or a storage key): a
 * reader opens its main file and, for a folder format, the siblings it names through it, so the same
 * reader runs on the disk and on the bucket.
 */
export type OpenFile = (name: string) => Promise<ByteSource>;

export const openDiskFile: OpenFile = (path) => SlideFile.open(path);

/** A whole (small) file as text: MIRAX's Slidedat.ini. */
export async function readText(openFile: OpenFile, name: string, format: string): Promise<string> {
  const f = await openFile(name);
  try {
    return new TextDecoder().decode(await f.read(0, f.size, format, name));
  } finally {
    await f.close();
  }
}

/** A little-endian DataView over `bytes`, narrowing 64-bit fields to numbers. */
export function le(bytes: Uint8Array): {
  u8: (o: number) => number;
  u16: (o: number) => number;
  i32: (o: number) => number;
  u32: (o: number) => number;
  f32: (o: number) => number;
  f64: (o: number) => number;
  i64: (o: number) => number;
} {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    u8: (o) => v.getUint8(o),
    u16: (o) => v.getUint16(o, true),
    i32: (o) => v.getInt32(o, true),
    u32: (o) => v.getUint32(o, true),
    f32: (o) => v.getFloat32(o, true),
    f64: (o) => v.getFloat64(o, true),
    i64: (o) => Number(v.getBigInt64(o, true)),
  };
}

/** ASCII text up to the first NUL. */
export function asciiz(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let s = '';
  for (let i = start; i < end && bytes[i] !== 0; i++) s += String.fromCharCode(bytes[i]);
  return s;
}
