// A small LRU of decoded tiles, bounded by bytes, that also shares one decode between concurrent readers.
// Quirk: entries are promises; a failed decode is dropped so the next request retries it.

import type { RawImage } from './types';

export class TileCache {
  private readonly map = new Map<string, { p: Promise<RawImage>; bytes: number }>();
  private total = 0;

  /** @param maxBytes decoded bytes kept; 64 MiB holds ~340 RGB tiles of 256² per open slide. */
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(key: string, load: () => Promise<RawImage>): Promise<RawImage> {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key); // re-insert: Map order is our recency order
      this.map.set(key, hit);
      return hit.p;
    }
    const entry = { p: load(), bytes: 0 };
    this.map.set(key, entry);
    entry.p.then(
      (img) => {
        if (this.map.get(key) !== entry) return;
        entry.bytes = img.data.byteLength;
        this.total += entry.bytes;
        this.evict();
      },
      () => {
        if (this.map.get(key) === entry) this.map.delete(key);
      },
    );
    return entry.p;
  }

  private evict(): void {
    for (const [k, v] of this.map) {
      if (this.total <= this.maxBytes) break;
      this.map.delete(k);
      this.total -= v.bytes;
    }
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
