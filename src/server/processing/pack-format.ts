// The pyramid pack: every file of an image's DZI pyramid(s) (the tiles, the .dzi descriptors,
// layers.json) in one stored object, so a slide costs one object in the bucket, not tens of thousands,
// and any server reading the same storage serves its tiles (docs/formats.md "Pyramid pack").
//
// Layout: the files' bytes one after another, in the order the tiler finished them; then the index;
// then a fixed 32-byte footer. A reader makes one ranged read for the footer, one for the index, and
// then one per file.
//   footer  = "TSRPACK1" | index offset (u64 LE) | index length (u64 LE) | pack id (8 random bytes)
//   index   = u32 LE length of a JSON head | JSON head | grid tables
//   head    = { files: { name: [offset, length] }, grids: [{ prefix, cols, rows }] }
//   grid    = cols × rows entries, row-major, each offset (f64 LE: exact to 2^53) + length (u32 LE);
//             length 0 marks a tile the pack lacks
// Tiles (`<layer>_files/<level>/<col>_<row>.jpeg`) go in the grids at 12 bytes each, so the index of a
// 100,000-tile slide is 1.2 MB in memory, not a JSON map of names; the few other files are named in
// the head.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import crypto from 'node:crypto';

export const PACK_MAGIC = 'TSRPACK1';
export const FOOTER_BYTES = 32;
const ENTRY_BYTES = 12;
const TILE = /^([a-z0-9]+_files\/\d{1,2})\/(\d{1,6})_(\d{1,6})\.jpeg$/;
/** An index larger than this is not one the tiler writes (a 4-million-tile slide): a damaged footer. */
const MAX_INDEX_BYTES = 64 * 2 ** 20;

/** A pack that cannot be read: a cut-off object, a bad footer or index, a file outside the pack. */
export class PackError extends Error {
  constructor(what: string) {
    super(`pyramid pack: ${what}`);
    this.name = 'PackError';
  }
}

export interface PackEntry {
  offset: number;
  length: number;
}

/** Where files are put by the tiler and the processing job (a pack, or a folder in a bench). */
export interface PyramidSink {
  put(name: string, bytes: Uint8Array): Promise<void>;
}

/**
 * Writes a pack to a local file as its files arrive (several at once: each gets its place before its
 * bytes are written, so writes in flight never overlap); memory holds only the index.
 */
export class PackWriter implements PyramidSink {
  private position = 0;
  private readonly files = new Map<string, PackEntry>();
  private readonly tiles = new Map<string, Map<number, PackEntry & { col: number; row: number }>>();

  private constructor(
    readonly file: string,
    private readonly handle: fsp.FileHandle,
  ) {}

  static async create(file: string): Promise<PackWriter> {
    return new PackWriter(file, await fsp.open(file, 'w'));
  }

  /** Bytes of the files put so far. */
  get bytes(): number {
    return this.position;
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    const entry = { offset: this.position, length: bytes.length };
    this.position += bytes.length;
    const m = TILE.exec(name);
    if (m) {
      let grid = this.tiles.get(m[1]);
      if (!grid) this.tiles.set(m[1], (grid = new Map()));
      const col = Number(m[2]);
      const row = Number(m[3]);
      grid.set(row * 1_000_000 + col, { ...entry, col, row });
    } else this.files.set(name, entry);
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await this.handle.write(bytes, done, bytes.length - done, entry.offset + done);
      done += bytesWritten;
    }
  }

  /** Writes the index and footer and closes the file; returns the pack's size in bytes. */
  async finish(): Promise<number> {
    const grids = [...this.tiles.entries()].map(([prefix, tiles]) => {
      let cols = 0;
      let rows = 0;
      for (const t of tiles.values()) {
        cols = Math.max(cols, t.col + 1);
        rows = Math.max(rows, t.row + 1);
      }
      const table = Buffer.alloc(cols * rows * ENTRY_BYTES);
      for (const t of tiles.values()) {
        const at = (t.row * cols + t.col) * ENTRY_BYTES;
        table.writeDoubleLE(t.offset, at);
        table.writeUInt32LE(t.length, at + 8);
      }
      return { prefix, cols, rows, table };
    });
    const head = Buffer.from(
      JSON.stringify({
        files: Object.fromEntries([...this.files].map(([n, e]) => [n, [e.offset, e.length]])),
        grids: grids.map(({ prefix, cols, rows }) => ({ prefix, cols, rows })),
      }),
    );
    const headLength = Buffer.alloc(4);
    headLength.writeUInt32LE(head.length);
    const index = Buffer.concat([headLength, head, ...grids.map((g) => g.table)]);
    const footer = Buffer.alloc(FOOTER_BYTES);
    footer.write(PACK_MAGIC, 0, 'latin1');
    footer.writeBigUInt64LE(BigInt(this.position), 8);
    footer.writeBigUInt64LE(BigInt(index.length), 16);
    crypto.randomBytes(8).copy(footer, 24);
    const tail = Buffer.concat([index, footer]);
    await this.handle.write(tail, 0, tail.length, this.position);
    await this.handle.close();
    return this.position + tail.length;
  }

  /** Closes and removes the file (a pyramid given up). */
  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await fsp.rm(this.file, { force: true });
  }
}

/** Reads `length` bytes at `offset` of the pack; must return exactly that many or throw. */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>;

/** The index of a pack, held in memory to find a file's bytes without reading anything else. */
export class PackIndex {
  private constructor(
    /** 16 hex digits, new for every pack written: tells two packs of one image apart (ETags). */
    readonly id: string,
    /** Bytes of the pack. */
    readonly size: number,
    private readonly files: Map<string, PackEntry>,
    private readonly grids: Map<string, { cols: number; rows: number; at: number }>,
    private readonly table: Buffer,
  ) {}

  /** Bytes this index holds in memory (what a cache of indexes counts). */
  get memoryBytes(): number {
    return this.table.length + this.files.size * 64 + this.grids.size * 64;
  }

  /** Where file `name` is in the pack, or undefined when the pack has no such file. */
  find(name: string): PackEntry | undefined {
    const m = TILE.exec(name);
    if (!m) return this.files.get(name);
    const grid = this.grids.get(m[1]);
    const col = Number(m[2]);
    const row = Number(m[3]);
    if (!grid || col >= grid.cols || row >= grid.rows) return undefined;
    const at = grid.at + (row * grid.cols + col) * ENTRY_BYTES;
    const length = this.table.readUInt32LE(at + 8);
    return length ? { offset: this.table.readDoubleLE(at), length } : undefined;
  }

  /** Every file's name (tests, and a bench that unpacks a pyramid). */
  *names(): Generator<string> {
    yield* this.files.keys();
    for (const [prefix, g] of this.grids)
      for (let row = 0; row < g.rows; row++)
        for (let col = 0; col < g.cols; col++) {
          const name = `${prefix}/${col}_${row}.jpeg`;
          if (this.find(name)) yield name;
        }
  }

  /** Reads the footer and the index of a pack of `size` bytes: two reads. */
  static async read(size: number, read: ReadRange): Promise<PackIndex> {
    if (size < FOOTER_BYTES) throw new PackError(`${size} bytes is shorter than its footer`);
    const footer = Buffer.from(await read(size - FOOTER_BYTES, FOOTER_BYTES));
    if (footer.toString('latin1', 0, 8) !== PACK_MAGIC) throw new PackError('no pack footer at its end');
    const indexOffset = Number(footer.readBigUInt64LE(8));
    const indexLength = Number(footer.readBigUInt64LE(16));
    if (indexLength < 4 || indexLength > MAX_INDEX_BYTES || indexOffset + indexLength + FOOTER_BYTES !== size)
      throw new PackError('its footer does not match its size');
    const index = Buffer.from(await read(indexOffset, indexLength));
    const headLength = index.readUInt32LE(0);
    if (4 + headLength > index.length) throw new PackError('its index is cut off');
    let head: {
      files: Record<string, [number, number]>;
      grids: Array<{ prefix: string; cols: number; rows: number }>;
    };
    try {
      head = JSON.parse(index.toString('utf8', 4, 4 + headLength)) as typeof head;
    } catch {
      throw new PackError('its index is not readable');
    }
    const inData = (e: PackEntry) =>
      Number.isSafeInteger(e.offset) && e.offset >= 0 && e.length >= 0 && e.offset + e.length <= indexOffset;
    const files = new Map<string, PackEntry>();
    for (const [name, [offset, length]] of Object.entries(head.files ?? {})) {
      if (!inData({ offset, length })) throw new PackError(`its index puts ${name} outside the pack`);
      files.set(name, { offset, length });
    }
    const grids = new Map<string, { cols: number; rows: number; at: number }>();
    let at = 0;
    for (const g of head.grids ?? []) {
      grids.set(g.prefix, { cols: g.cols, rows: g.rows, at });
      at += g.cols * g.rows * ENTRY_BYTES;
    }
    const table = index.subarray(4 + headLength);
    if (table.length !== at) throw new PackError('its tile tables do not match its index');
    for (let p = 0; p < table.length; p += ENTRY_BYTES) {
      const length = table.readUInt32LE(p + 8);
      if (length && !inData({ offset: table.readDoubleLE(p), length }))
        throw new PackError('its index puts a tile outside the pack');
    }
    return new PackIndex(footer.toString('hex', 24, 32), size, files, grids, Buffer.from(table));
  }
}

/** A ReadRange over a local file (tests and benches read a pack they have on disk). */
export function fileReader(file: string): ReadRange {
  return async (offset, length) => {
    const buf = Buffer.alloc(length);
    const fd = await fsp.open(file, 'r');
    try {
      const { bytesRead } = await fd.read(buf, 0, length, offset);
      if (bytesRead !== length) throw new PackError('cut off');
      return buf;
    } finally {
      await fd.close();
    }
  };
}

/** Writes every file of a pack into a folder as loose files (the bench's bare-server baseline). */
export async function unpack(file: string, dir: string): Promise<number> {
  const read = fileReader(file);
  const index = await PackIndex.read((await fsp.stat(file)).size, read);
  let n = 0;
  for (const name of index.names()) {
    const e = index.find(name)!;
    const to = `${dir}/${name}`;
    await fsp.mkdir(to.slice(0, to.lastIndexOf('/')), { recursive: true });
    fs.writeFileSync(to, await read(e.offset, e.length));
    n++;
  }
  return n;
}
