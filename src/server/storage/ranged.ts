// A byte source over an object read by ranges (S3 GetObject with `Range: bytes=a-b`), so a worker reads
// a multi-gigabyte slide without copying it to its disk. Readers ask for small pieces at scattered
// offsets (headers, directories, one subblock or tile at a time), so the object is fetched in aligned
// blocks kept in an LRU with a byte cap: neighbouring reads hit the block already fetched (the
// read-ahead), a read over several missing blocks in a row is one request, and reads of a block already
// on its way wait for that request instead of asking again. A read much larger than the cache goes
// straight to the object (a big subblock would only push everything else out).
import { SlideErrors } from '../slides/errors';
import type { ByteSource } from '../slides/file';

/** The bytes [start, end) of the object; fewer when the object ends first. */
export type FetchRange = (start: number, end: number) => Promise<Uint8Array>;

export interface RangedOptions {
  /** Size of the aligned blocks fetched (the smallest request). */
  blockBytes: number;
  /** Bytes of blocks kept per open source. */
  cacheBytes: number;
}

const MiB = 1024 * 1024;

/** A request costs a round trip (tens of ms to a remote store); 2 MiB takes about as long on a LAN. */
export const DEFAULT_RANGED: RangedOptions = { blockBytes: 2 * MiB, cacheBytes: 32 * MiB };

export interface RangedStats {
  requests: number;
  bytesFetched: number;
}

export class RangedSource implements ByteSource {
  readonly stats: RangedStats = { requests: 0, bytesFetched: 0 };
  private readonly opts: RangedOptions;
  /** Block number → bytes; Map order is the LRU order (least recent first). */
  private readonly blocks = new Map<number, Uint8Array>();
  private cachedBytes = 0;
  /** Blocks being fetched, shared by every read that needs them meanwhile. */
  private readonly pending = new Map<number, Promise<Uint8Array>>();

  constructor(
    readonly path: string,
    readonly size: number,
    private readonly fetchRange: FetchRange,
    opts: Partial<RangedOptions> = {},
  ) {
    this.opts = { ...DEFAULT_RANGED, ...opts };
    if (!(this.opts.blockBytes >= 1) || !(this.opts.cacheBytes >= this.opts.blockBytes))
      throw new Error('ranged source: the cache must hold at least one block');
  }

  /** Bytes held by the cache now (never more than cacheBytes between reads). */
  get cached(): number {
    return this.cachedBytes;
  }

  async read(position: number, length: number, format: string, what: string): Promise<Uint8Array> {
    if (position < 0 || length < 0 || position + length > this.size)
      throw SlideErrors.truncated(format, what);
    if (length === 0) return new Uint8Array(0);
    const B = this.opts.blockBytes;
    const first = Math.floor(position / B);
    const last = Math.floor((position + length - 1) / B);
    if ((last - first + 1) * B > this.opts.cacheBytes / 2)
      return this.fetchExact(position, position + length, format, what);
    const parts = await Promise.all(this.blocksOf(first, last, format, what));
    const out = new Uint8Array(length);
    for (let k = first; k <= last; k++) {
      const block = parts[k - first];
      const from = Math.max(position, k * B);
      const to = Math.min(position + length, (k + 1) * B);
      out.set(block.subarray(from - k * B, to - k * B), from - position);
    }
    return out;
  }

  async close(): Promise<void> {
    this.blocks.clear();
    this.cachedBytes = 0;
  }

  /** Promises of blocks first..last: cached, already on their way, or fetched now by runs. */
  private blocksOf(first: number, last: number, format: string, what: string): Promise<Uint8Array>[] {
    const out: Promise<Uint8Array>[] = [];
    let runStart = -1;
    const startRun = (end: number) => {
      if (runStart < 0) return;
      const start = runStart;
      const run = this.fetchRun(start, end, format, what);
      for (let k = start; k <= end; k++) {
        const block = run.then((blocks) => blocks[k - start]);
        // The read that started the run sees the error; the others waiting on it too.
        block.catch(() => undefined);
        this.pending.set(k, block);
        out[k - first] = block;
      }
      runStart = -1;
    };
    for (let k = first; k <= last; k++) {
      const hit = this.blocks.get(k);
      const waiting = this.pending.get(k);
      if (hit) {
        this.blocks.delete(k); // most recently used: to the end of the Map
        this.blocks.set(k, hit);
        out[k - first] = Promise.resolve(hit);
      } else if (waiting) out[k - first] = waiting;
      else if (runStart < 0) runStart = k;
      if ((hit || waiting) && runStart >= 0) startRun(k - 1);
    }
    startRun(last);
    return out;
  }

  private async fetchRun(a: number, b: number, format: string, what: string): Promise<Uint8Array[]> {
    const B = this.opts.blockBytes;
    try {
      const bytes = await this.fetchExact(a * B, Math.min(this.size, (b + 1) * B), format, what);
      const blocks: Uint8Array[] = [];
      for (let k = a; k <= b; k++) {
        // Copies when a run holds several blocks, so evicting one frees its bytes.
        const block = bytes.subarray((k - a) * B, (k - a + 1) * B);
        blocks.push(a === b ? block : block.slice());
        this.remember(k, blocks[k - a]);
      }
      return blocks;
    } finally {
      for (let k = a; k <= b; k++) this.pending.delete(k);
    }
  }

  private async fetchExact(start: number, end: number, format: string, what: string): Promise<Uint8Array> {
    this.stats.requests++;
    const bytes = await this.fetchRange(start, end);
    this.stats.bytesFetched += bytes.length;
    // The object is shorter than its size said: cut off behind our back.
    if (bytes.length !== end - start) throw SlideErrors.truncated(format, what);
    return bytes;
  }

  private remember(k: number, block: Uint8Array): void {
    this.blocks.set(k, block);
    this.cachedBytes += block.length;
    for (const [old, bytes] of this.blocks) {
      if (this.cachedBytes <= this.opts.cacheBytes) break;
      this.blocks.delete(old);
      this.cachedBytes -= bytes.length;
    }
  }
}
