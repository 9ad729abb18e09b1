// The tiles (and thumbnails) cut on demand, kept by bytes in a small LRU so a viewer panning back and
// forth, or several viewers of a slide just uploaded, do not cut the same tile again; one cut is shared
// by the requests that arrive while it runs. A failed cut is dropped so the next request tries again.

export interface Cut {
  body: Buffer;
  type: string;
}

export class CutCache {
  private readonly map = new Map<string, { p: Promise<Cut>; bytes: number }>();
  private total = 0;

  /** @param maxBytes encoded bytes kept: 32 MiB holds about 1,500 JPEG tiles of 254². */
  constructor(private readonly maxBytes = 32 * 2 ** 20) {}

  get(key: string, cut: () => Promise<Cut>): Promise<Cut> {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key); // re-inserted: Map order is the recency order
      this.map.set(key, hit);
      return hit.p;
    }
    const entry = { p: cut(), bytes: 0 };
    this.map.set(key, entry);
    entry.p.then(
      (c) => {
        if (this.map.get(key) !== entry) return;
        entry.bytes = c.body.byteLength;
        this.total += entry.bytes;
        for (const [k, v] of this.map) {
          if (this.total <= this.maxBytes) break;
          this.map.delete(k);
          this.total -= v.bytes;
        }
      },
      () => {
        if (this.map.get(key) === entry) this.map.delete(key);
      },
    );
    return entry.p;
  }
}
